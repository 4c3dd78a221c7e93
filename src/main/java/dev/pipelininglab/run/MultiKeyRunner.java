package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.KeySpace;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The reference point pipelining is measured against: one multi-key command per batch (MSET, MGET, or
 * {@code RPOP key count} on Redis 6.2+), so the server parses one command instead of thousands.
 */
@Component
class MultiKeyRunner implements BatchRunner {

	private final StringRedisTemplate template;

	private final KeySpace keys;

	MultiKeyRunner(StringRedisTemplate template, KeySpace keys) {
		this.template = template;
		this.keys = keys;
	}

	@Override
	public Mode mode() {
		return Mode.MULTI_KEY;
	}

	@Override
	public boolean supports(Operation operation) {
		return operation != Operation.RPUSH;
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return batchSize;
	}

	@Override
	public void warmUp() {
		this.template.execute((RedisCallback<String>) (connection) -> connection.ping());
	}

	@Override
	public void run(RunSpec spec, long from, long to, Tally tally) {
		switch (spec.operation()) {
			case SET -> {
				Map<String, String> entries = new LinkedHashMap<>();
				for (long i = from; i < to; i++) {
					entries.put(this.keys.key(i), this.keys.value(i));
				}
				this.template.opsForValue().multiSet(entries);
				for (long i = from; i < to; i++) {
					tally.value(null);
				}
			}
			case GET -> {
				List<String> batch = new ArrayList<>((int) (to - from));
				for (long i = from; i < to; i++) {
					batch.add(this.keys.key(i));
				}
				countAll(this.template.opsForValue().multiGet(batch), to - from, tally);
			}
			case RPOP -> countAll(this.template.opsForList().rightPop(this.keys.listKey(), to - from), to - from,
					tally);
			case RPUSH -> throw new UnsupportedOperationException("RPUSH has no multi-key mode");
		}
	}

	/** An empty list answers RPOP with count with nil, so missing elements are counted as empty pops. */
	private static void countAll(List<String> replies, long asked, Tally tally) {
		long seen = 0;
		if (replies != null) {
			for (String reply : replies) {
				seen++;
				if (reply != null) {
					tally.value(reply);
				}
				else {
					tally.nil();
				}
			}
		}
		for (long i = seen; i < asked; i++) {
			tally.nil();
		}
	}

}
