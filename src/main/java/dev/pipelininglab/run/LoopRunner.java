package dev.pipelininglab.run;

import dev.pipelininglab.redis.KeySpace;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** The code most applications start with: one blocking template call per command. */
@Component
class LoopRunner implements BatchRunner {

	private final StringRedisTemplate template;

	private final KeySpace keys;

	LoopRunner(StringRedisTemplate template, KeySpace keys) {
		this.template = template;
		this.keys = keys;
	}

	@Override
	public Mode mode() {
		return Mode.LOOP;
	}

	@Override
	public boolean supports(Operation operation) {
		return true;
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return 1;
	}

	@Override
	public void warmUp() {
		this.template.execute((RedisCallback<String>) (connection) -> connection.ping());
	}

	@Override
	public void run(RunSpec spec, long from, long to, Tally tally) {
		var values = this.template.opsForValue();
		var lists = this.template.opsForList();
		String listKey = this.keys.listKey();
		for (long i = from; i < to; i++) {
			switch (spec.operation()) {
				case SET -> {
					if (spec.ttl() != null) {
						values.set(this.keys.key(i), this.keys.value(i), spec.ttl());
					}
					else {
						values.set(this.keys.key(i), this.keys.value(i));
					}
					// SET either succeeds with OK or throws, so getting here is the acknowledgement.
					tally.value(null);
				}
				case GET -> count(values.get(this.keys.key(i)), tally);
				case RPOP -> count(lists.rightPop(listKey), tally);
				case RPUSH -> {
					lists.rightPush(listKey, this.keys.value(i));
					tally.value(null);
				}
			}
		}
	}

	private static void count(String reply, Tally tally) {
		if (reply != null) {
			tally.value(reply);
		}
		else {
			tally.nil();
		}
	}

}
