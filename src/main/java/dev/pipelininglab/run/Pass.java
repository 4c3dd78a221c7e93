package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Route;

/**
 * One pass of a run over its items: what to send, under which keys, over which
 * connection.
 */
record Pass(RunSpec spec, KeySpace keys, Route route) {

	Operation operation() {
		return this.spec.operation();
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
		return KeySpace.bytes(this.spec.operation().key(this.keys));
	}

}
