package dev.pipelininglab.run;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/** The code most applications start with: one blocking template call per command. */
@Component
class LoopRunner extends BatchRunner {

	LoopRunner() {
		super(Mode.LOOP);
	}

	@Override
	public int perRoundTrip(int batchSize) {
		return 1;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		StringRedisTemplate template = pass.route().template();
		for (long i = from; i < to; i++) {
			pass.command(i).loop(template, pass, i, tally);
		}
	}

}
