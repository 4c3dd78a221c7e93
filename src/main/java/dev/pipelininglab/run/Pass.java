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

}
