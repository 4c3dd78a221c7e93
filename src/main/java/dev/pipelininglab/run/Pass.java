package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Route;
import io.lettuce.core.SetArgs;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.types.Expiration;

/**
 * One pass of a run over its items: items reach their command, key and value only through
 * here, so a key pattern or a mix of commands changes this class, not the senders.
 */
final class Pass {

	private static final byte[] NO_KEY = new byte[0];

	private final RunSpec spec;

	private final KeySpace keys;

	private final Route route;

	private final Command command;

	private final @Nullable String oneKey;

	private final byte @Nullable [] oneKeyBytes;

	private final @Nullable Expiration expiration;

	private final @Nullable SetArgs setArgs;

	Pass(RunSpec spec, KeySpace keys, Route route) {
		this.spec = spec;
		this.keys = keys;
		this.route = route;
		this.command = spec.operation().command().forRun(spec.workload());
		this.oneKey = this.command.key(keys);
		this.oneKeyBytes = (this.oneKey != null) ? KeySpace.bytes(this.oneKey) : null;
		this.expiration = (spec.ttl() != null) ? Expiration.from(spec.ttl()) : null;
		this.setArgs = (spec.ttl() != null) ? SetArgs.Builder.ex(spec.ttl()) : null;
	}

	RunSpec spec() {
		return this.spec;
	}

	KeySpace keys() {
		return this.keys;
	}

	Route route() {
		return this.route;
	}

	/** In a mix, SET or GET as the ratio says. */
	Command command(long index) {
		return this.command.forItem(index);
	}

	Command command() {
		return this.command;
	}

	/** Each reply counted as its item's command sent it, items from {@code from} on. */
	void count(long from, Iterable<?> replies, Tally tally) {
		long item = from;
		for (Object reply : replies) {
			command(item++).count(reply, tally);
		}
	}

	byte[] keyBytes(long index) {
		if (this.oneKeyBytes != null) {
			return this.oneKeyBytes;
		}
		return this.command.keyed() ? this.keys.keyBytes(this.spec.workload().keyIndex(this.command.keyItem(index)))
				: NO_KEY;
	}

	String key(long index) {
		return (this.oneKey != null) ? this.oneKey
				: this.keys.key(this.spec.workload().keyIndex(this.command.keyItem(index)));
	}

	byte[] valueBytes(long index) {
		return this.keys.valueBytes(index, this.spec.valueSize());
	}

	String value(long index) {
		return this.keys.value(index, this.spec.valueSize());
	}

	byte[] keyBytes() {
		if (this.oneKeyBytes == null) {
			throw new IllegalStateException(this.command.name() + " has a key per item");
		}
		return this.oneKeyBytes;
	}

	@Nullable Expiration expiration() {
		return this.expiration;
	}

	@Nullable SetArgs setArgs() {
		return this.setArgs;
	}

}
