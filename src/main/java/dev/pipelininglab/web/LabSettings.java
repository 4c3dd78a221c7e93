package dev.pipelininglab.web;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.redis.PipelineProperties;

import org.springframework.stereotype.Component;

/**
 * The settings the web layer checks requests against and describes: the limits, the
 * default flush policy and writes, how jobs are kept and whether fleets run here.
 *
 * @param limits {@code lab.limits.*}
 * @param pipeline {@code lab.pipeline.*}
 * @param jobs {@code lab.jobs.*}
 * @param fleet {@code lab.fleet.*}
 */
@Component
public record LabSettings(LimitProperties limits, PipelineProperties pipeline, JobProperties jobs,
		FleetProperties fleet) {

}
