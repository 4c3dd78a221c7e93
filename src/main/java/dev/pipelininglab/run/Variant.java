package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import org.jspecify.annotations.Nullable;

/**
 * One contender in a comparison: a mode, for Lettuce pipelines the flush policy, and the
 * connector. Written as {@code loop}, {@code pipelined} (the request's flush policy),
 * {@code pipelined-<policy>} such as {@code pipelined-buffered-1000}, {@code multi-key},
 * {@code multi-key-hashtag}, {@code script} or {@code async} for Lettuce, Spring Boot's
 * default; a {@code jedis-} prefix runs the same mode through Spring Data Redis's Jedis
 * connector ({@code jedis-loop}, {@code jedis-pipelined}, {@code jedis-multi-key}...).
 */
public record Variant(Mode mode, @Nullable FlushPolicy flushPolicy, Connector connector) {

	private static final String PIPELINED_PREFIX = Mode.PIPELINED.label() + "-";

	private static final String JEDIS_PREFIX = Connector.JEDIS.label() + "-";

	public Variant {
		if (connector == Connector.JEDIS && flushPolicy != null) {
			throw new IllegalArgumentException("Jedis has no flush policy: write jedis-pipelined");
		}
	}

	public Variant(Mode mode, @Nullable FlushPolicy flushPolicy) {
		this(mode, flushPolicy, Connector.LETTUCE);
	}

	public static Variant of(Mode mode) {
		return new Variant(mode, null);
	}

	public static Variant valueOf(String text) {
		String label = text.trim().toLowerCase(Locale.ROOT);
		Connector connector = Connector.LETTUCE;
		if (label.startsWith(JEDIS_PREFIX)) {
			connector = Connector.JEDIS;
			label = label.substring(JEDIS_PREFIX.length());
		}
		if (label.startsWith(PIPELINED_PREFIX)) {
			return new Variant(Mode.PIPELINED, FlushPolicy.valueOf(label.substring(PIPELINED_PREFIX.length())),
					connector);
		}
		Connector chosen = connector;
		return Mode.fromLabel(label)
			.map((mode) -> new Variant(mode, null, chosen))
			.orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + text + "': use loop, pipelined,"
					+ " pipelined-<flush policy> (e.g. pipelined-buffered-1000), multi-key, multi-key-hashtag, script"
					+ " or async, or jedis-<mode> (e.g. jedis-pipelined) for Spring Data Redis's Jedis connector"));
	}

	public FlushPolicy policyOr(FlushPolicy fallback) {
		return (this.flushPolicy != null) ? this.flushPolicy : fallback;
	}

	public String label() {
		String mode = (this.flushPolicy != null) ? PIPELINED_PREFIX + this.flushPolicy : this.mode.label();
		return (this.connector == Connector.JEDIS) ? JEDIS_PREFIX + mode : mode;
	}

	@Override
	public String toString() {
		return label();
	}

}
