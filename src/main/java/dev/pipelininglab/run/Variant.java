package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Writes;
import org.jspecify.annotations.Nullable;

/**
 * One contender in a comparison: a mode, for pipelines the flush policy, and for
 * pipelines and async runs the way batches are handed to Netty when it differs from the
 * configured one. Written as {@code loop}, {@code pipelined} (the request's flush
 * policy), {@code pipelined-<policy>} such as {@code pipelined-buffered-1000},
 * {@code multi-key}, {@code multi-key-hashtag}, {@code script} or {@code async}; a
 * pipelined or async variant may end in {@code -per-flush} or {@code -per-command}, such
 * as {@code pipelined-buffered-500-per-flush}.
 */
public record Variant(Mode mode, @Nullable FlushPolicy flushPolicy, @Nullable Writes writes) {

	private static final String PIPELINED_PREFIX = Mode.PIPELINED.label() + "-";

	public Variant(Mode mode, @Nullable FlushPolicy flushPolicy) {
		this(mode, flushPolicy, null);
	}

	public static Variant of(Mode mode) {
		return new Variant(mode, null, null);
	}

	public static Variant valueOf(String text) {
		String label = text.trim().toLowerCase(Locale.ROOT);
		Writes writes = null;
		for (Writes candidate : Writes.values()) {
			if (label.endsWith("-" + candidate.label())) {
				writes = candidate;
				label = label.substring(0, label.length() - candidate.label().length() - 1);
			}
		}
		if (writes != null && !label.equals(Mode.ASYNC.label()) && !label.startsWith(Mode.PIPELINED.label())) {
			throw new IllegalArgumentException(
					"Variant '" + text + "': only pipelined and async variants may end in -" + writes.label());
		}
		if (label.startsWith(PIPELINED_PREFIX)) {
			return new Variant(Mode.PIPELINED, FlushPolicy.valueOf(label.substring(PIPELINED_PREFIX.length())), writes);
		}
		Writes asked = writes;
		return Mode.fromLabel(label)
			.map((mode) -> new Variant(mode, null, asked))
			.orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + text + "': use loop, pipelined,"
					+ " pipelined-<flush policy> (e.g. pipelined-buffered-1000), multi-key, multi-key-hashtag, script"
					+ " or async; pipelined and async ones may end in -per-flush or -per-command"));
	}

	public FlushPolicy policyOr(FlushPolicy fallback) {
		return (this.flushPolicy != null) ? this.flushPolicy : fallback;
	}

	public String label() {
		String base = (this.flushPolicy != null) ? PIPELINED_PREFIX + this.flushPolicy : this.mode.label();
		return (this.writes != null) ? base + "-" + this.writes.label() : base;
	}

	@Override
	public String toString() {
		return label();
	}

}
