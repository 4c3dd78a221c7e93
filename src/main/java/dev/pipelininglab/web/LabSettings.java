package dev.pipelininglab.web;

import dev.pipelininglab.LimitProperties;
import dev.pipelininglab.job.FleetProperties;
import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.redis.PipelineProperties;

import org.springframework.stereotype.Component;

/** What requests are checked against: {@code lab.limits/pipeline/jobs/fleet.*}. */
@Component
public record LabSettings(LimitProperties limits, PipelineProperties pipeline, JobProperties jobs,
		FleetProperties fleet) {

}
