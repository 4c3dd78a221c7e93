package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The reference point pipelining is measured against: one multi-key command per batch (MSET, MGET, or
 * {@code RPOP key count} on Redis 6.2+), so the server parses one command instead of thousands.
 */
@Component
class MultiKeyRunner implements BatchRunner {

	@Override
	public Mode mode() {
		return Mode.MULTI_KEY;
	}

	@Override
	public String unsupported(RunSpec spec, Topology topology) {
		return switch (spec.operation()) {
			case SET -> (spec.ttl() != null) ? "MSET cannot set an expiry" : null;
			case GET, RPOP -> null;
			case PING -> "PING has no multi-key form";
			case RPUSH -> "the lab fills lists with pipelined RPUSH only";
		};
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return batchSize;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		StringRedisTemplate template = pass.route().template();
		KeySpace keys = pass.keys();
		switch (pass.operation()) {
			case SET -> {
				Map<String, String> entries = new LinkedHashMap<>();
				for (long i = from; i < to; i++) {
					entries.put(keys.key(i), keys.value(i));
				}
				template.opsForValue().multiSet(entries);
				for (long i = from; i < to; i++) {
					tally.value(null);
				}
			}
			case GET -> {
				List<String> batch = new ArrayList<>((int) (to - from));
				for (long i = from; i < to; i++) {
					batch.add(keys.key(i));
				}
				countAll(template.opsForValue().multiGet(batch), to - from, tally);
			}
			case RPOP -> countAll(template.opsForList().rightPop(keys.listKey(), to - from), to - from, tally);
			default -> throw new IllegalStateException(unsupported(pass.spec(), null));
		}
	}

	/** An empty list answers RPOP with count with nil, so missing elements are counted as empty pops. */
	static void countAll(List<?> replies, long asked, Tally tally) {
		long seen = 0;
		if (replies != null) {
			for (Object reply : replies) {
				seen++;
				tally.reply(reply);
			}
		}
		for (long i = seen; i < asked; i++) {
			tally.nil();
		}
	}

}
