package dev.pipelininglab.metrics;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.pipelininglab.run.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Component;

/**
 * One timer per operation, mode and variant ({@code lab.run.pass}, in Prometheus
 * {@code lab_run_pass_seconds}), fed with the measured time of each timed pass: the
 * commands alone, as in the result, never the warm-up, preparation or verification around
 * them. {@code lab.run.commands} counts the commands those passes sent. Tags take a
 * bounded set of values: {@code pipelined-buffered} stands for every buffer size.
 */
@Component
public class RunMetrics {

	static final String PASS_TIMER = "lab.run.pass";

	static final String COMMANDS = "lab.run.commands";

	private static final Pattern BUFFER_SIZE = Pattern.compile("buffered-\\d+");

	private final MeterRegistry registry;

	RunMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	public void record(List<RunResult> results) {
		results.forEach(this::record);
	}

	/**
	 * The variant as a tag: its flush policy's kind, not its buffer size, so requests
	 * cannot add a series per {@code flushPolicy=buffered-<n>} they send (a scrape grew
	 * from 22 KB to 620 KB over 1,500 such requests).
	 */
	static String variantTag(String variant) {
		return BUFFER_SIZE.matcher(variant).replaceAll("buffered");
	}

	public void record(RunResult result) {
		String operation = result.ran().operation().label();
		String mode = result.ran().mode().label();
		String variant = variantTag(result.ran().variant());
		Timer passes = Timer.builder(PASS_TIMER)
			.description("Time the commands of one timed pass took, measured with System.nanoTime")
			.tags("operation", operation, "mode", mode, "variant", variant)
			.register(this.registry);
		Counter commands = Counter.builder(COMMANDS)
			.description("Commands sent in timed passes")
			.tags("operation", operation, "mode", mode, "variant", variant)
			.register(this.registry);
		// The result keeps every pass's time when a run was repeated, else only its one
		// pass.
		List<Double> millis = (result.timing().repeatMillis() != null) ? result.timing().repeatMillis()
				: List.of(result.timing().elapsedMillis());
		for (double pass : millis) {
			passes.record(Duration.ofNanos(Math.round(pass * 1_000_000)));
			commands.increment(result.ran().count());
		}
	}

}
