package dev.pipelininglab.web;

import dev.pipelininglab.web.text.ResultTextConverter;

import org.jspecify.annotations.Nullable;

/**
 * The query parameters every run endpoint understands; which apply depends on the
 * endpoint, and {@link RunRequests} rejects the ones that do not.
 *
 * @param batchSize commands per pipeline, multi-key command or script call
 * @param sample values to echo back
 * @param ttl SET only: seconds until the keys expire
 * @param flushPolicy pipelined runs: {@code flush-each-command}, {@code flush-on-close}
 * or {@code buffered-<n>}
 * @param rtt milliseconds of round-trip time to add through a latency relay in front of
 * each Redis node
 * @param repeat comparisons and sweeps: timed passes per variant, the median is reported
 * @param variants comparisons: comma-separated variants, all by default
 * @param batchSizes sweeps: comma-separated batch sizes
 * @param valueSize bytes per value, derived from the item (commands that carry values)
 * @param requests fan-out: send the whole run this many times, as one request each
 * @param clients threads that split {@code count} into disjoint key ranges and send at
 * once, 1 by default
 * @param connector {@code lettuce} (default) or {@code jedis}; comparisons name Jedis
 * variants {@code jedis-<mode>} instead
 * @param connection loop, multi-key and script: {@code shared} (Lettuce's default, one
 * native connection for every thread) or {@code pooled} (each call borrows a connection;
 * the only way for Jedis)
 * @param rate offered load in commands per second over all clients; as fast as it goes
 * when absent
 * @param duration seconds each timed pass may send for at most; it ends then or after its
 * count, whichever comes first
 * @param ratio {@code op=mixed}: SETs to GETs as {@code W:R}, 1:10 when absent
 * @param keys SET and GET: the key space, {@code count} keys when absent
 * @param pattern SET and GET: how items walk the key space, {@code sequential} when
 * absent
 * @param seed SET and GET: what the random patterns draw from
 * @param columns the columns of a text, CSV or Markdown answer; it shapes the answer, not
 * the run, so {@link ResultTextConverter} reads it and nothing here does
 */
public record RunParams(@Nullable Integer batchSize, @Nullable Integer sample, @Nullable Long ttl,
		@Nullable String flushPolicy, @Nullable Double rtt, @Nullable Integer repeat, @Nullable String variants,
		@Nullable String batchSizes, @Nullable Integer valueSize, @Nullable Integer requests, @Nullable Integer clients,
		@Nullable String connector, @Nullable String connection, @Nullable Integer rate, @Nullable Integer duration,
		@Nullable String ratio, @Nullable Long keys, @Nullable String pattern, @Nullable Long seed,
		@Nullable String columns) {
}
