package dev.pipelininglab.run;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What makes a comparison's answer steady and gives it measured batch-size advice
 * (docs/configuration.md). The tests turn all three off, as they count every command a
 * comparison sends.
 *
 * @param batchSizes the batch sizes the comparison's pipelined variant (with
 * {@code lab.pipeline.flush-policy}) is also timed at, for its {@code recommendation};
 * empty for none. The request's own batch size counts as one; sizes above its
 * {@code count} or {@code lab.limits.max-batch-size} are dropped
 * @param passes the timed passes of each variant when the request asks for neither
 * {@code repeat} nor {@code duration}: one pass on a 2-core machine ranged 4.6× between
 * runs, the median of three holds still
 * @param passTime how long each of those passes runs, over at most {@code count} keys,
 * cycling: a pipelined pass of 10,000 SETs lasts 10 ms, too short to judge; zero to run
 * each pass once over {@code count} items
 */
public record CompareProperties(@DefaultValue( {
		"10", "100", "1000" }) @NotNull List<@Positive Integer> batchSizes,
		@DefaultValue("3") @Positive @Max(9) int passes, @DefaultValue("150ms") @NotNull Duration passTime){

	public CompareProperties {
		if (passTime.isNegative()) {
			throw new IllegalArgumentException("lab.compare.pass-time must not be negative, got " + passTime);
		}
	}

}
