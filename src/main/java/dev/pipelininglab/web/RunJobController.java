package dev.pipelininglab.web;

import java.net.URI;
import java.util.List;

import dev.pipelininglab.job.RunEvents;
import dev.pipelininglab.job.RunJobs;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.RunService;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Runs as jobs, for runs too long for one request: start one, follow it, cancel it, list
 * recent ones. The body of {@code POST /runs} is checked by the same {@link RunRequests}
 * as the GET endpoints, so bounds and messages match.
 */
@RestController
@RequestMapping("/runs")
class RunJobController {

	private final RunJobs jobs;

	private final RunEvents events;

	private final RunRequests requests;

	private final RunService runs;

	RunJobController(RunJobs jobs, RunEvents events, RunRequests requests, RunService runs) {
		this.jobs = jobs;
		this.events = events;
		this.requests = requests;
		this.runs = runs;
	}

	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<RunRecord> start(@RequestBody RunJobRequest body, HttpServletRequest request) {
		RunPlan plan = this.requests.plan(body);
		if (plan.kind() == RunKind.SINGLE) {
			// A comparison lists what it cannot run as skipped; a single run that cannot
			// run is a bad request.
			String reason = this.runs.unsupported(plan.base());
			if (reason != null) {
				throw new InvalidParameterException("mode",
						"must be one that can run " + plan.base().operation().label() + " here: "
								+ plan.base().mode().label() + " cannot, because " + reason);
			}
		}
		RunRecord record = this.jobs.submit(plan);
		return ResponseEntity.accepted()
			.location(URI.create(request.getContextPath() + "/runs/" + record.id()))
			.body(record);
	}

	@GetMapping
	RunJobs.History list(@RequestParam(required = false) @Nullable Integer limit) {
		return this.jobs.recent(this.requests.listLimit(limit));
	}

	@GetMapping("/{id}")
	RunRecord get(@PathVariable String id) {
		return this.jobs.get(id);
	}

	/**
	 * Cancellation takes effect between batches, on whichever instance runs the job:
	 * hence 202.
	 */
	@DeleteMapping("/{id}")
	ResponseEntity<RunRecord> cancel(@PathVariable String id) {
		return ResponseEntity.accepted().body(this.jobs.cancel(id));
	}

	@GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	SseEmitter events(@PathVariable String id) {
		return this.events.stream(id);
	}

}
