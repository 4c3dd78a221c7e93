package dev.pipelininglab.metrics;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.pipelininglab.run.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Component;

/** A timer and a command count per operation, mode and variant, of the timed passes. */
@Component
public class RunMetrics {

	// One series per buffer size would grow without bound (a scrape went from 22 KB to
	// 620 KB).
	private static final Pattern BUFFER_SIZE = Pattern.compile("buffered-\\d+");

	private final MeterRegistry registry;

	RunMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	public void record(RunResult result) {
		Tags tags = Tags.of("operation", result.ran().operation().label(), "mode", result.ran().mode().label(),
				"variant", BUFFER_SIZE.matcher(result.ran().variant()).replaceAll("buffered"));
		Timer passes = Timer.builder("lab.run.pass")
			.description("Time the commands of one timed pass took, measured with System.nanoTime")
			.tags(tags)
			.register(this.registry);
		Counter commands = Counter.builder("lab.run.commands")
			.description("Commands sent in timed passes")
			.tags(tags)
			.register(this.registry);
		List<Double> millis = (result.timing().repeatMillis() != null) ? result.timing().repeatMillis()
				: List.of(result.timing().elapsedMillis());
		millis.forEach((pass) -> passes.record(Duration.ofNanos(Math.round(pass * 1_000_000))));
		commands.increment(result.ran().count() * millis.size());
	}

}
