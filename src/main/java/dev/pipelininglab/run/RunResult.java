package dev.pipelininglab.run;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The answer to one run. Field names are a contract with clients and scripts. Counters that do not apply to
 * the operation are left out of the JSON.
 *
 * @param operation the command sent for each item
 * @param mode how the commands travelled
 * @param count items processed
 * @param batchSize commands (or keys) per round trip: 1 for the loop
 * @param batches round trips the client made: {@code count} for the loop
 * @param flushPolicy the Lettuce pipelining flush policy of the connection factory
 * @param topology standalone, sentinel or cluster
 * @param elapsedMillis wall time of the commands alone, measured with {@code System.nanoTime}; the warm-up and
 * the verification read-back are not included
 * @param opsPerSecond {@code count} divided by the elapsed time
 * @param written SET and RPUSH: commands Redis acknowledged
 * @param verified SET: keys read back afterwards that hold exactly the value written
 * @param hits GET: keys that had a value
 * @param misses GET: keys that did not exist
 * @param popped RPOP: elements popped
 * @param empty RPOP: pops that found the list empty
 * @param sample the first values written (as read back), read or popped
 * @param speedup in a comparison: the loop's elapsed time divided by this run's
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunResult(Operation operation, Mode mode, long count, int batchSize, long batches, String flushPolicy,
		String topology, double elapsedMillis, double opsPerSecond, @Nullable Long written, @Nullable Long verified,
		@Nullable Long hits, @Nullable Long misses, @Nullable Long popped, @Nullable Long empty, List<String> sample,
		@Nullable Double speedup) {

	RunResult withSpeedup(double value) {
		return new RunResult(this.operation, this.mode, this.count, this.batchSize, this.batches, this.flushPolicy,
				this.topology, this.elapsedMillis, this.opsPerSecond, this.written, this.verified, this.hits,
				this.misses, this.popped, this.empty, this.sample, value);
	}

}
