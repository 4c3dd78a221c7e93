package dev.pipelininglab.run;

import java.util.Locale;

import dev.pipelininglab.redis.FlushPolicy;
import org.jspecify.annotations.Nullable;

/**
 * One contender in a comparison: a mode, and for pipelines the flush policy. Written as
 * {@code loop}, {@code pipelined} (the request's flush policy),
 * {@code pipelined-<policy>} such as {@code pipelined-buffered-1000}, {@code multi-key},
 * {@code multi-key-hashtag}, {@code script} or {@code async}.
 */
public record Variant(Mode mode, @Nullable FlushPolicy flushPolicy) {

	private static final String PIPELINED_PREFIX = Mode.PIPELINED.label() + "-";

	public static Variant of(Mode mode) {
		return new Variant(mode, null);
	}

	public static Variant valueOf(String text) {
		String label = text.trim().toLowerCase(Locale.ROOT);
		if (label.startsWith(PIPELINED_PREFIX)) {
			return new Variant(Mode.PIPELINED, FlushPolicy.valueOf(label.substring(PIPELINED_PREFIX.length())));
		}
		return Mode.fromLabel(label)
			.map(Variant::of)
			.orElseThrow(() -> new IllegalArgumentException("Unknown variant '" + text + "': use loop, pipelined,"
					+ " pipelined-<flush policy> (e.g. pipelined-buffered-1000), multi-key, multi-key-hashtag, script or async"));
	}

	public FlushPolicy policyOr(FlushPolicy fallback) {
		return (this.flushPolicy != null) ? this.flushPolicy : fallback;
	}

	public String label() {
		return (this.flushPolicy != null) ? PIPELINED_PREFIX + this.flushPolicy : this.mode.label();
	}

	@Override
	public String toString() {
		return label();
	}

}
