package dev.pipelininglab.web;

import java.util.List;

/** The catalogue's fixed bounds, not configurable: {@link ApiParameter} states them. */
final class FixedBounds {

	/**
	 * The keys of web.text's table columns, in their order: that package builds the
	 * columns, the catalogue names them (CatalogueTests keeps the two alike).
	 */
	static final List<String> COLUMNS = List.of("variant", "batch", "round-trips", "elapsed-ms", "min-ms", "max-ms",
			"ops/s", "ops/s-min-max", "speedup", "speedup-min-max", "limited", "rtt-ms", "added-rtt-ms",
			"foreign-commands", "evicted-keys", "redis-keys-before", "redis-keys-after", "redis-mb-before",
			"redis-mb-after", "server-reads/item", "server-cpu-us/item", "latency-per", "p50-ms", "p90-ms", "p99-ms",
			"p99.9-ms", "latency-max-ms", "mb/s", "checked", "p50/p99-ms");

	/** Ten times what this lab's fastest variant reaches on loopback. */
	static final int MAX_RATE = 10_000_000;

	/** Fixed, so two runs that leave the seed out walk the same keys. */
	static final long DEFAULT_SEED = 1;

	/** A week: enough for a demo; a typo leaves no keys for years. */
	static final long MAX_TTL_SECONDS = 7 * 24 * 3600;

	/** Below a microsecond the relay's Netty delay rounds to none: no relay. */
	static final double MIN_RTT_MILLIS = 0.001;

	static final double MAX_RTT_MILLIS = 1000;

	static final int MAX_SWEEP_POINTS = 20;

	static final int DEFAULT_LIST_LIMIT = 20;

	/** Stands for lab.pipeline.flush-policy in a description, filled in per app. */
	static final String APP_POLICY = "{lab.pipeline.flush-policy}";

	private FixedBounds() {
	}

}
