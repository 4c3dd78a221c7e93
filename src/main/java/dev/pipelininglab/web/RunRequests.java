package dev.pipelininglab.web;

import java.time.Duration;

import dev.pipelininglab.LabProperties;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunSpec;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

/** Turns request parameters into a {@link RunSpec}, checking every bound before anything touches Redis. */
@Component
class RunRequests {

	/** A week: long enough for any demo, short enough that a typo does not leave keys for years. */
	static final long MAX_TTL_SECONDS = 7 * 24 * 3600;

	private final LabProperties.Limits limits;

	RunRequests(LabProperties properties) {
		this.limits = properties.limits();
	}

	RunSpec spec(Operation operation, Mode mode, long count, @Nullable Integer batchSize, @Nullable Integer sample,
			@Nullable Long ttl) {
		if (count < 1 || count > this.limits.maxCount()) {
			throw new InvalidParameterException("count",
					"must be between 1 and " + this.limits.maxCount() + ", got " + count);
		}
		int batch = (batchSize != null) ? batchSize : (int) Math.min(this.limits.defaultBatchSize(), count);
		if (batch < 1 || batch > this.limits.maxBatchSize()) {
			throw new InvalidParameterException("batchSize",
					"must be between 1 and " + this.limits.maxBatchSize() + ", got " + batch);
		}
		if (batch > count) {
			throw new InvalidParameterException("batchSize",
					"must not be larger than count (" + count + "), got " + batch);
		}
		int samples = (sample != null) ? sample : this.limits.defaultSample();
		if (samples < 0 || samples > this.limits.maxSample()) {
			throw new InvalidParameterException("sample",
					"must be between 0 and " + this.limits.maxSample() + ", got " + samples);
		}
		return new RunSpec(operation, mode, count, batch, samples, ttl(operation, ttl));
	}

	static Operation operation(String label) {
		return Operation.fromLabel(label)
			.filter((operation) -> operation != Operation.RPUSH)
			.orElseThrow(() -> new InvalidParameterException("op", "must be one of set, get, rpop, got '" + label + "'"));
	}

	private static @Nullable Duration ttl(Operation operation, @Nullable Long ttl) {
		if (ttl == null) {
			return null;
		}
		if (operation != Operation.SET) {
			throw new InvalidParameterException("ttl", "applies to SET only");
		}
		if (ttl < 1 || ttl > MAX_TTL_SECONDS) {
			throw new InvalidParameterException("ttl",
					"must be between 1 and " + MAX_TTL_SECONDS + " seconds, got " + ttl);
		}
		return Duration.ofSeconds(ttl);
	}

}
