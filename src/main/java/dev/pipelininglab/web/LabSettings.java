package dev.pipelininglab.web;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.redis.PipelineProperties;

import org.springframework.stereotype.Component;

/**
 * The settings ({@code lab.limits.*}, {@code lab.pipeline.*}, {@code lab.jobs.*},
 * {@code lab.fleet.*}) requests are checked against.
 */
@Component
public record LabSettings(LimitProperties limits, PipelineProperties pipeline, JobProperties jobs,
		FleetProperties fleet) {

}
