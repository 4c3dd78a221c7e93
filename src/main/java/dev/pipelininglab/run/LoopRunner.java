package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Ping;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The code most applications start with: one blocking template call per command, one
 * round trip each.
 */
@Component
class LoopRunner implements BatchRunner {

	@Override
	public Mode mode() {
		return Mode.LOOP;
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return 1;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		StringRedisTemplate template = pass.route().template();
		KeySpace keys = pass.keys();
		var values = template.opsForValue();
		var lists = template.opsForList();
		String listKey = keys.listKey();
		for (long i = from; i < to; i++) {
			switch (pass.operation()) {
				case SET -> {
					if (pass.spec().ttl() != null) {
						values.set(keys.key(i), keys.value(i), pass.spec().ttl());
					}
					else {
						values.set(keys.key(i), keys.value(i));
					}
					// SET either succeeds with OK or throws, so getting here is the
					// acknowledgement.
					tally.value(null);
				}
				case GET -> tally.reply(values.get(keys.key(i)));
				case RPOP -> tally.reply(lists.rightPop(listKey));
				case PING -> tally.reply(template.execute((RedisCallback<String>) Ping::once));
				case RPUSH -> {
					lists.rightPush(listKey, keys.value(i));
					tally.value(null);
				}
			}
		}
	}

}
