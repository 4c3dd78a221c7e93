package dev.pipelininglab.testsupport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AwaitFromTheStart} is in effect in every test JVM: Awaitility would refuse a 50
 * ms limit shorter than its default 100 ms first delay.
 */
class AwaitFromTheStartTest {

	@Test
	void anAwaitLooksAtItsConditionBeforeWaitingAtAll() {
		AtomicInteger looks = new AtomicInteger();
		await().atMost(Duration.ofMillis(50)).until(() -> looks.incrementAndGet() > 0);
		assertThat(looks).hasValue(1);
	}

}
