package dev.pipelininglab.web;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.redis.PipelineProperties;

import org.springframework.stereotype.Component;

/**
 * The settings the web layer checks requests against and describes: the limits, the
 * default flush policy and writes, and how jobs are kept.
 *
 * @param limits {@code lab.limits.*}
 * @param pipeline {@code lab.pipeline.*}
 * @param jobs {@code lab.jobs.*}
 */
@Component
public record LabSettings(LimitProperties limits, PipelineProperties pipeline, JobProperties jobs) {

}
