package dev.pipelininglab.run;

import java.util.Map;

import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * SET and GET mixed item by item in the proportion of the run's {@link Ratio}, in the
 * same order in every variant; each item is sent and counted as its own command, so only
 * the modes that send item by item take it.
 */
final class MixedCommand extends Command implements Command.Reactive, Command.Verified {

	private final Ratio ratio;

	MixedCommand(Ratio ratio) {
		super("MIXED", true, null);
		this.ratio = ratio;
	}

	@Override
	Command forRun(Workload workload) {
		return workload.ratio().equals(this.ratio) ? this : new MixedCommand(workload.ratio());
	}

	@Override
	Command forItem(long item) {
		return (this.ratio.isWrite(item) ? Operation.SET : Operation.GET).command();
	}

	@Override
	long keyItem(long item) {
		return this.ratio.keyItem(item);
	}

	@Override
	public long readBackCount(long count) {
		return this.ratio.writesIn(count);
	}

	@Override
	void count(@Nullable Object reply, Tally tally) {
		throw new IllegalStateException("a mix counts each reply as its item's command, Pass.command(item)");
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		forItem(item).send(connection, pass, item);
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		forItem(item).loop(template, pass, item, tally);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		return forItem(item).async(commands, pass, item, key);
	}

	@Override
	public Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item) {
		return ((Command.Reactive) forItem(item)).reactive(template, pass, item);
	}

	@Override
	public long readBackItem(long index, long count) {
		return this.ratio.writeItem(index);
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		return new Footprint(MemoryShape.STRING, base.workload().ratio().writesIn(base.count()));
	}

	/** Of the shown pass; {@code loopLatency} is the loop's latency per command. */
	RunResult.Mix mix(ClientThreads.Outcome outcome, Tally tally, double seconds,
			@Nullable Map<String, Latency> loopLatency) {
		// Whole passes over each client's range, then what a time limit left of the last.
		long sets = 0;
		long sent = 0;
		for (ClientThreads.Client client : outcome.clients()) {
			long range = client.end - client.first;
			if (range > 0) {
				long setsInRange = this.ratio.writesIn(client.end) - this.ratio.writesIn(client.first);
				sets += (client.sent / range) * setsInRange + this.ratio.writesIn(client.first + client.sent % range)
						- this.ratio.writesIn(client.first);
			}
			sent += client.sent;
		}
		long gets = sent - sets;
		// Acknowledged SETs count as values: the values beyond them are GET hits.
		long hits = Math.max(0, tally.values() - sets);
		String latencyNote = (loopLatency != null) ? null
				: "each latency sample is a round trip carrying SETs and GETs together, so there is no"
						+ " latency per command; the loop times them one by one";
		return new RunResult.Mix(this.ratio.label(), sets, gets, hits, tally.nils(),
				RunService.round(sets / seconds, 1), RunService.round(gets / seconds, 1), loopLatency, latencyNote);
	}

}
