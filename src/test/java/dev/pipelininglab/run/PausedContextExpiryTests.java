package dev.pipelininglab.run;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.testsupport.SharedRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A stopped app context that starts again (the test framework pauses idle contexts) still
 * gives a stopped run's keys their expiry: the background expiry outlives a stop.
 */
@SpringBootTest
@SharedRedis
class PausedContextExpiryTests {

	@Autowired
	ConfigurableApplicationContext context;

	@Autowired
	RunService runs;

	@Autowired
	StringRedisTemplate redis;

	@Test
	void aRunCancelledAfterTheContextWasStoppedAndStartedAgainLeavesItsKeysAnExpiry() {
		this.redis.getRequiredConnectionFactory().getConnection().serverCommands().flushAll();
		this.context.stop();
		this.context.start();
		AtomicLong done = new AtomicLong();
		RunObserver cancelsMidRun = new RunObserver() {
			@Override
			public void commandsDone(long commands) {
				done.addAndGet(commands);
			}

			@Override
			public boolean cancelled() {
				return done.get() >= 5_000;
			}
		};
		RunSpec spec = Specs.of(Operation.SET, Mode.PIPELINED, FlushPolicy.FLUSH_ON_CLOSE, 1_000_000, 1_000, 0);

		assertThatExceptionOfType(RunCancelledException.class).isThrownBy(() -> this.runs.run(spec, cancelsMidRun));

		await().atMost(Duration.ofSeconds(20)).until(() -> this.redis.getExpire("pipelining-lab:key:0") > 0);
	}

}
