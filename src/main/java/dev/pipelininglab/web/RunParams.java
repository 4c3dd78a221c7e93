package dev.pipelininglab.web;

import dev.pipelininglab.web.text.ResultTextConverter;

import org.jspecify.annotations.Nullable;

/**
 * The run endpoints' query parameters, each described in {@link ApiParameter};
 * {@link RunRequests} rejects those an endpoint does not take.
 *
 * @param columns shapes the answer, not the run: {@link ResultTextConverter} reads it
 */
public record RunParams(@Nullable Integer batchSize, @Nullable Integer sample, @Nullable Long ttl,
		@Nullable String flushPolicy, @Nullable Double rtt, @Nullable Integer repeat, @Nullable String variants,
		@Nullable String batchSizes, @Nullable Integer valueSize, @Nullable Integer requests, @Nullable Integer clients,
		@Nullable String connector, @Nullable String connection, @Nullable Integer rate, @Nullable Integer duration,
		@Nullable String ratio, @Nullable Long keys, @Nullable String pattern, @Nullable Long seed,
		@Nullable String columns) {
}
