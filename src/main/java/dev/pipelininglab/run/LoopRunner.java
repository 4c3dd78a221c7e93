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
		String key = pass.operation().key(keys);
		for (long i = from; i < to; i++) {
			switch (pass.operation()) {
				case SET -> {
					if (pass.spec().ttl() != null) {
						values.set(keys.key(i), pass.value(i), pass.spec().ttl());
					}
					else {
						values.set(keys.key(i), pass.value(i));
					}
					// SET either succeeds with OK or throws, so getting here is the
					// acknowledgement.
					tally.value(null);
				}
				case GET -> tally.reply(values.get(keys.key(i)));
				case RPOP -> tally.reply(lists.rightPop(key));
				case PING -> tally.reply(template.execute((RedisCallback<String>) Ping::once));
				case RPUSH -> {
					lists.rightPush(key, pass.value(i));
					tally.value(null);
				}
				case LPUSH -> {
					lists.leftPush(key, pass.value(i));
					tally.value(null);
				}
				case INCR -> tally.reply(values.increment(key));
				case HSET -> {
					template.opsForHash().put(key, keys.field(i), pass.value(i));
					tally.value(null);
				}
				case SADD -> {
					template.opsForSet().add(key, pass.value(i));
					tally.value(null);
				}
				case ZADD -> {
					template.opsForZSet().add(key, pass.value(i), i);
					tally.value(null);
				}
			}
		}
	}

}
