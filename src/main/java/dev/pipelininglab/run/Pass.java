package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Route;
import io.lettuce.core.SetArgs;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.types.Expiration;

/**
 * One pass of a run over its items: what to send, under which keys, over which
 * connection. Items reach their command, key and value only through here, so that a key
 * pattern or a mix of commands changes this class, not the senders.
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
		// Made once per pass, not once per item.
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

	Operation operation() {
		return this.spec.operation();
	}

	/**
	 * The command item {@code index} sends: the run's operation, or in a mix SET or GET
	 * as the ratio says.
	 */
	Command command(long index) {
		return this.command.forItem(index);
	}

	/**
	 * The run's command, for what is the same for every item (its script, its read-back).
	 */
	Command command() {
		return this.command;
	}

	/**
	 * The key item {@code index} works on, as bytes: its own, the run's one key, or none.
	 */
	byte[] keyBytes(long index) {
		if (this.oneKeyBytes != null) {
			return this.oneKeyBytes;
		}
		return this.command.keyed() ? this.keys.keyBytes(this.spec.workload().keyIndex(this.command.keyItem(index)))
				: NO_KEY;
	}

	/**
	 * The key item {@code index} works on: its own (where the run's key walk puts it) or
	 * the run's one key.
	 */
	String key(long index) {
		return (this.oneKey != null) ? this.oneKey
				: this.keys.key(this.spec.workload().keyIndex(this.command.keyItem(index)));
	}

	/** The value item {@code index} writes, at the run's value size. */
	byte[] valueBytes(long index) {
		return this.keys.valueBytes(index, this.spec.valueSize());
	}

	String value(long index) {
		return this.keys.value(index, this.spec.valueSize());
	}

	/** The run's one key (INCR, HSET, SADD, ZADD, the lists), as bytes. */
	byte[] keyBytes() {
		if (this.oneKeyBytes == null) {
			throw new IllegalStateException(this.command.name() + " has a key per item");
		}
		return this.oneKeyBytes;
	}

	/** The expiry a SET sets, or null for none. */
	@Nullable Expiration expiration() {
		return this.expiration;
	}

	/** The same expiry as Lettuce's SET arguments, or null for none. */
	@Nullable SetArgs setArgs() {
		return this.setArgs;
	}

}
