package dev.pipelininglab.run;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Everything that defines one measured run; every way into the app (GET endpoints, compare) becomes one of
 * these. Bounds are checked where requests arrive; this record only guards its invariants.
 *
 * @param operation the command sent for each item
 * @param mode how the commands travel
 * @param count how many items (keys, or list elements)
 * @param batchSize items per pipeline or per multi-key command
 * @param sample how many values to echo back
 * @param ttl expiry for SET, or null for none
 */
public record RunSpec(Operation operation, Mode mode, long count, int batchSize, int sample, @Nullable Duration ttl) {

	public RunSpec {
		if (count < 1 || batchSize < 1 || sample < 0) {
			throw new IllegalArgumentException("count and batchSize must be positive, sample not negative");
		}
		if (ttl != null && operation != Operation.SET) {
			throw new IllegalArgumentException("ttl applies to SET only");
		}
	}

	RunSpec withMode(Mode other) {
		return new RunSpec(this.operation, other, this.count, this.batchSize, this.sample, this.ttl);
	}

	long batches() {
		return (this.count + this.batchSize - 1) / this.batchSize;
	}

}
