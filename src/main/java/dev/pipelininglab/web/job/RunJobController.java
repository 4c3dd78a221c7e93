package dev.pipelininglab.web.job;

import java.net.URI;

import dev.pipelininglab.ProblemType;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunKind;
import dev.pipelininglab.job.RunPlan;
import dev.pipelininglab.job.RunRecord;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.web.ApiProblems;
import dev.pipelininglab.web.InvalidParameterException;
import dev.pipelininglab.web.RunJobRequest;
import dev.pipelininglab.web.RunRequests;
import dev.pipelininglab.web.text.ResultTextConverter;
import dev.pipelininglab.web.text.RunPair;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Runs as jobs, for runs too long for one request: start, follow, cancel, list; bodies
 * checked by the GET endpoints' {@link RunRequests}.
 */
@RestController
@RequestMapping("/runs")
public class RunJobController {

	private static final String BODY = "The run to start. kind picks the GET endpoint it mirrors (single, compare,"
			+ " sweep; inferred from variants or batchSizes when left out); the other fields are that endpoint's path"
			+ " and query parameters, with the same names, defaults and bounds; instances, in the body only, runs a"
			+ " single SET or GET run from that many instances started with lab.fleet.join=true. Unknown fields, a"
			+ " field given twice, and fractions or strings where a whole number belongs are rejected; each entry of"
			+ " variants is one variant.";

	private final RunExecutor jobs;

	private final RunEvents events;

	private final RunRequests requests;

	private final RunService runs;

	RunJobController(RunExecutor jobs, RunEvents events, RunRequests requests, RunService runs) {
		this.jobs = jobs;
		this.events = events;
		this.requests = requests;
		this.runs = runs;
	}

	@ApiResponse(responseCode = "202", description = "Accepted: the run is QUEUED; follow it at the Location",
			headers = @Header(name = "Location", description = "/runs/{id} of the new run",
					schema = @Schema(type = "string")))
	@ApiProblems(ProblemType.TOO_BUSY)
	@PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
	@ResponseStatus(HttpStatus.ACCEPTED)
	ResponseEntity<RunRecord> start(
			@RequestBody @io.swagger.v3.oas.annotations.parameters.RequestBody(description = BODY, content = @Content(
					mediaType = MediaType.APPLICATION_JSON_VALUE,
					schema = @Schema(implementation = RunJobRequest.class),
					examples = { @ExampleObject(name = "single", summary = "One pipelined SET run", value = """
							{"kind": "single", "operation": "set", "mode": "pipelined", "count": 1000000, \
							"batchSize": 10000}"""),
							@ExampleObject(name = "compare", summary = "Loop against pipelines and MSET", value = """
									{"kind": "compare", "operation": "set", "count": 100000, "batchSize": 1000, \
									"variants": ["loop", "pipelined-flush-on-close", "multi-key", "async"]}"""),
							@ExampleObject(name = "sweep", summary = "Throughput against pipeline length", value = """
									{"kind": "sweep", "operation": "get", "count": 100000, \
									"batchSizes": [1, 10, 100, 1000, 10000]}""") })) RunJobRequest body,
			HttpServletRequest request) {
		RunPlan plan = this.requests.plan(body);
		if (plan.kind() == RunKind.SINGLE) {
			// A comparison skips what cannot run; a single run that cannot is a 400.
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
	RunExecutor.History list(@RequestParam(required = false) @Nullable Integer limit) {
		return this.jobs.recent(this.requests.listLimit(limit));
	}

	@ApiResponse(responseCode = "200",
			description = "The run's record: status, progress, and results when DONE; a"
					+ " table for Accept: text/plain, text/csv or text/markdown")
	@GetMapping("/{id}")
	RunRecord get(@PathVariable String id) {
		return this.jobs.get(id);
	}

	@ApiResponse(responseCode = "200",
			description = "Both runs' figures matched by variant and batch size, with b/a"
					+ " ratios; a table for Accept: text/plain, text/csv or text/markdown")
	@ApiProblems(ProblemType.RUN_NOT_FOUND)
	@GetMapping("/compare")
	RunPair compare(@RequestParam String a, @RequestParam String b) {
		return RunPair.of(this.jobs.get(a), this.jobs.get(b));
	}

	@ApiResponse(responseCode = "200", description = "The run as a file (Content-Disposition: attachment)")
	@GetMapping("/{id}/report.{format}")
	ResponseEntity<?> report(@PathVariable String id, @PathVariable String format,
			@RequestParam(required = false) @Nullable String columns) {
		MediaType type = switch (format) {
			case "json" -> MediaType.APPLICATION_JSON;
			case "csv" -> ResultTextConverter.CSV;
			case "md" -> ResultTextConverter.MARKDOWN;
			case "txt" -> ResultTextConverter.TEXT;
			default ->
				throw new InvalidParameterException("format", "must be json, csv, md or txt (got '" + format + "')");
		};
		RunRecord record = this.jobs.get(id);
		String name = "pipelining-lab-" + record.kind().label() + "-" + record.request().operation() + "-"
				+ record.request().count() + "-" + record.id().substring(0, 8) + "." + format;
		ResponseEntity.BodyBuilder answer = ResponseEntity.ok()
			.contentType(type)
			.header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment().filename(name).build().toString());
		return (type == MediaType.APPLICATION_JSON) ? answer.body(record)
				: answer.body(ResultTextConverter.render(record, type.getSubtype(),
						// A file keeps every figure, a terminal only what fits.
						(columns != null) ? columns : "all"));
	}

	/** 202: the run stops between batches, on whichever instance runs it. */
	@ApiResponse(responseCode = "202",
			description = "Cancel requested: the run stops before its next batch and becomes CANCELLED")
	@ApiProblems(ProblemType.RUN_FINISHED)
	@DeleteMapping("/{id}")
	@ResponseStatus(HttpStatus.ACCEPTED)
	RunRecord cancel(@PathVariable String id) {
		return this.jobs.cancel(id);
	}

	@GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	SseEmitter events(@PathVariable String id) {
		return this.events.stream(id);
	}

}
