package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Writes;
import org.jspecify.annotations.Nullable;

/**
 * One contender in a comparison: a mode, for Lettuce pipelines the flush policy, the
 * connector, and for Lettuce pipelines and async runs the way batches are handed to Netty
 * when it differs from the configured one. Labels as {@link #valueOf} reads them.
 */
public record Variant(Mode mode, @Nullable FlushPolicy flushPolicy, Connector connector, @Nullable Writes writes) {

	private static final String PIPELINED_PREFIX = Mode.PIPELINED.label() + "-";

	private static final String JEDIS_PREFIX = Connector.JEDIS.label() + "-";

	public Variant {
		if (connector == Connector.JEDIS && (flushPolicy != null || writes != null)) {
			throw new IllegalArgumentException(
					"Jedis has no flush policy and no Netty hand-over to choose: write jedis-pipelined");
		}
	}

	public Variant(Mode mode, @Nullable FlushPolicy flushPolicy) {
		this(mode, flushPolicy, Connector.LETTUCE, null);
	}

	public Variant(Mode mode, @Nullable FlushPolicy flushPolicy, Connector connector) {
		this(mode, flushPolicy, connector, null);
	}

	public Variant(Mode mode, @Nullable FlushPolicy flushPolicy, @Nullable Writes writes) {
		this(mode, flushPolicy, Connector.LETTUCE, writes);
	}

	public static Variant of(Mode mode) {
		return new Variant(mode, null, Connector.LETTUCE, null);
	}

	/** As results name it: Jedis has no flush policy and no way of writing. */
	public static Variant of(RunSpec spec, @Nullable FlushPolicy flushPolicy) {
		Connector connector = spec.senders().connector();
		boolean lettuce = connector == Connector.LETTUCE;
		return new Variant(spec.mode(), (spec.mode() == Mode.PIPELINED && lettuce) ? flushPolicy : null, connector,
				lettuce ? spec.writes() : null);
	}

	public static Variant valueOf(String text) {
		// Exactly as written, like every other label the lab reads.
		String label = text;
		Connector connector = Connector.LETTUCE;
		if (label.startsWith(JEDIS_PREFIX)) {
			connector = Connector.JEDIS;
			label = label.substring(JEDIS_PREFIX.length());
		}
		Writes writes = null;
		for (Writes candidate : Writes.values()) {
			if (label.endsWith("-" + candidate.label())) {
				writes = candidate;
				label = label.substring(0, label.length() - candidate.label().length() - 1);
			}
		}
		if (writes != null && !label.equals(Mode.ASYNC.label())
				&& (!label.startsWith(Mode.PIPELINED.label()) || label.equals(Mode.PIPELINED_BY_NODE.label()))) {
			throw new IllegalArgumentException("Variant '" + text + "': only pipelined and async variants may end in -"
					+ writes.label() + " (pipelined-by-node writes to each master's connection as Lettuce does)");
		}
		// pipelined-by-node and pipelined-transaction are modes of their own, not a
		// pipeline with a flush policy.
		if (label.startsWith(PIPELINED_PREFIX) && Mode.fromLabel(label).isEmpty()) {
			return new Variant(Mode.PIPELINED, FlushPolicy.valueOf(label.substring(PIPELINED_PREFIX.length())),
					connector, writes);
		}
		Mode mode = Mode.fromLabel(label)
			.orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + text + "': use loop, pipelined,"
					+ " pipelined-<flush policy> (e.g. pipelined-buffered-1000), pipelined-by-node, multi-key,"
					+ " multi-key-hashtag, script, transaction, pipelined-transaction, reactive"
					+ " or async (pipelined and async ones may end in -per-flush or -per-command), or jedis-<mode>"
					+ " (e.g. jedis-pipelined) for Spring Data Redis's Jedis connector"));
		return new Variant(mode, null, connector, writes);
	}

	/** Why this variant runs on no topology at all, or null. */
	public @Nullable String runsNowhere() {
		if (this.connector != Connector.JEDIS) {
			return null;
		}
		return switch (this.mode) {
			case ASYNC -> "async is Lettuce's own API, below Spring Data Redis; Jedis has no counterpart";
			case PIPELINED_TRANSACTION -> "Spring Data Redis's Jedis connection takes no MULTI inside a pipeline"
					+ " (\"Cannot use Transaction while a pipeline is open\"); jedis-transaction works";
			case REACTIVE -> "Spring Data Redis's reactive API runs on Lettuce only; Jedis has no reactive driver";
			default -> null;
		};
	}

	public FlushPolicy policyOr(FlushPolicy fallback) {
		return (this.flushPolicy != null) ? this.flushPolicy : fallback;
	}

	public String label() {
		String base = (this.flushPolicy != null) ? PIPELINED_PREFIX + this.flushPolicy : this.mode.label();
		String written = (this.writes != null) ? base + "-" + this.writes.label() : base;
		return (this.connector == Connector.JEDIS) ? JEDIS_PREFIX + written : written;
	}

	@Override
	public String toString() {
		return label();
	}

}
