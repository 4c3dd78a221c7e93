package dev.pipelininglab.run;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An offered rate without Redis: when each round trip is due, that clients share the
 * rate, and that latency is timed from the due time (coordinated omission left out).
 */
class PacerTests {

	private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

	@Test
	void aRoundTripIsDueOnceTheRateHasAllowedItsOwnItems() {
		Pacer pacer = Pacer.of(1000, 1, 0);
		// At 1,000 a second the first command is due at 1 ms, not at once: N items take
		// N / rate, so the achieved rate is the one asked.
		assertThat(pacer.due(0, 1)).isEqualTo(MS);
		assertThat(pacer.due(0, 100)).isEqualTo(100 * MS);
		assertThat(pacer.due(100, 100)).isEqualTo(200 * MS);
	}

	@Test
	void clientsShareTheRate() {
		// Four clients at 1,000 a second together: 250 each, one command every 4 ms.
		assertThat(Pacer.of(1000, 4, 0).due(0, 1)).isEqualTo(4 * MS);
	}

	@Test
	void dueTimesCountFromWhenTheClientStarted() {
		assertThat(Pacer.of(1000, 1, 5 * MS).due(0, 10)).isEqualTo(15 * MS);
	}

	@Test
	void aLateRoundTripIsTimedFromWhenItWasDueNotFromWhenItLeft() {
		// Started a second ago at 1,000 a second: the first command has been due for 999
		// ms.
		long started = System.nanoTime() - 1000 * MS;
		Pacer pacer = Pacer.of(1000, 1, started);
		assertThat(pacer.awaitTurn(0, 1, RunObserver.NONE)).isEqualTo(started + MS);
	}

	@Test
	void anEarlyRoundTripWaitsForItsTurn() {
		Pacer pacer = Pacer.of(100, 1, System.nanoTime());
		long due = pacer.awaitTurn(0, 2, RunObserver.NONE);
		assertThat(System.nanoTime()).isGreaterThanOrEqualTo(due);
	}

	@Test
	void aCancelEndsTheWaitForATurn() {
		// One command a second, 1,000 of them: due in 1,000 s, but cancelled.
		Pacer pacer = Pacer.of(1, 1, System.nanoTime());
		RunObserver cancelled = new RunObserver() {
			@Override
			public boolean cancelled() {
				return true;
			}
		};
		assertThatExceptionOfType(RunCancelledException.class).isThrownBy(() -> pacer.awaitTurn(0, 1000, cancelled));
	}

}
