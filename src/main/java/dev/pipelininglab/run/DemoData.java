package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.Connections;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.NodeConnections;
import dev.pipelininglab.redis.ReplicaSync;
import dev.pipelininglab.redis.Route;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

/**
 * Untimed set-up and checking around measured runs: puts keys or the list into the state
 * a run starts from, and reads written keys back. Always pipelined in batches on the
 * direct connection, so it stays quick and bounded at any count, whatever route the
 * measured run takes. When reads go to replicas, reads wait for the replicas to have what
 * was written before them, so a GET run or a verification never reads a replica that is
 * still catching up.
 */
@Component
class DemoData {

	private final Connections connections;

	private final PipelinedRunner pipelined;

	private final ReplicaSync replicas;

	DemoData(Connections connections, PipelinedRunner pipelined, ReplicaSync replicas) {
		this.connections = connections;
		this.pipelined = pipelined;
		this.replicas = replicas;
	}

	void deleteKeys(KeySpace keys, long count, int batchSize, RunObserver observer) {
		Route route = this.connections.primary();
		for (long from = 0; from < count; from += batchSize) {
			long to = Math.min(count, from + batchSize);
			checkCancelled(observer);
			long start = from;
			route.template().executePipelined((RedisCallback<Object>) (connection) -> {
				NodeConnections.connect(connection, route.factory());
				for (long i = start; i < to; i++) {
					connection.keyCommands().unlink(keys.keyBytes(i));
				}
				return null;
			});
			observer.commandsDone(to - start);
		}
	}

	/**
	 * Writes keys for GET runs to read; returns once replicas that serve reads have them
	 * too.
	 */
	void writeKeys(KeySpace keys, long count, int batchSize, RunObserver observer) {
		fill(Operation.SET, keys, count, batchSize, observer);
		this.replicas.await();
	}

	void refillList(KeySpace keys, long count, int batchSize, RunObserver observer) {
		deleteList(keys);
		fill(Operation.RPUSH, keys, count, batchSize, observer);
	}

	void deleteList(KeySpace keys) {
		this.connections.primary().template().unlink(keys.listKey());
	}

	private void fill(Operation operation, KeySpace keys, long count, int batchSize, RunObserver observer) {
		Route route = this.connections.primary();
		Pass pass = new Pass(RunSpec.of(operation, Mode.PIPELINED, route.flushPolicy(), count, batchSize, 0), keys,
				route);
		Tally tally = new Tally(0);
		for (long from = 0; from < count; from += batchSize) {
			checkCancelled(observer);
			long to = Math.min(count, from + batchSize);
			this.pipelined.run(pass, from, to, tally);
			observer.commandsDone(to - from);
		}
	}

	/** Set-up is untimed but can be long: a cancel stops it between its batches too. */
	private static void checkCancelled(RunObserver observer) {
		if (observer.cancelled()) {
			throw new RunCancelledException();
		}
	}

	/**
	 * Reads keys {@code 0..count-1} back and counts those holding exactly the value
	 * written; the values read go into {@code sample} while it has room.
	 */
	long verifyKeys(KeySpace keys, long count, int batchSize, Tally sample, RunObserver observer) {
		Route route = this.connections.primary();
		// Reads where GET runs read: from replicas, when read-from says so, once they
		// have caught up.
		this.replicas.await();
		long verified = 0;
		for (long from = 0; from < count; from += batchSize) {
			checkCancelled(observer);
			long to = Math.min(count, from + batchSize);
			long start = from;
			List<Object> values = route.template().executePipelined((RedisCallback<Object>) (connection) -> {
				NodeConnections.connect(connection, route.factory());
				for (long i = start; i < to; i++) {
					connection.stringCommands().get(keys.keyBytes(i));
				}
				return null;
			});
			long i = start;
			for (Object value : values) {
				if (keys.value(i).equals(value)) {
					verified++;
					sample.value((String) value);
				}
				i++;
			}
			observer.commandsDone(to - start);
		}
		return verified;
	}

}
