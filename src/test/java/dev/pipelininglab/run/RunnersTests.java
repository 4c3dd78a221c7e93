package dev.pipelininglab.run;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A spec is checked once: the connector, then the mode on the topology, then the pace,
 * each asked at most once, and the refusal names the parameter of the first that refused.
 */
class RunnersTests {

	private final AtomicInteger asked = new AtomicInteger();

	private final Runners runners = new Runners(List.of(runner(Mode.PIPELINED, null), runner(Mode.SCRIPT, "no")),
			new Topology(Topology.Kind.STANDALONE, List.of("localhost:1")));

	@Test
	void aModeTheTopologyRefusesIsAskedOnceAndNamesMode() {
		Runners.Refusal refusal = Objects
			.requireNonNull(this.runners.refusal(spec(Operation.SET, Mode.SCRIPT, Connector.LETTUCE)));
		assertThat(refusal).isEqualTo(new Runners.Refusal("mode", "no"));
		assertThat(this.asked).hasValue(1);
		assertThat(refusal.of(spec(Operation.SET, Mode.SCRIPT, Connector.LETTUCE)))
			.hasMessageContaining("cannot run in mode")
			.hasMessageEndingWith(": no");
	}

	@Test
	void aConnectorThatCannotSendTheCommandRefusesBeforeTheModeIsAsked() {
		Runners.Refusal refusal = Objects
			.requireNonNull(this.runners.refusal(spec(Operation.PING, Mode.PIPELINED, Connector.JEDIS)));
		assertThat(refusal.parameter()).isEqualTo("connector");
		assertThat(refusal.reason()).contains("refuses PING inside a pipeline");
		assertThat(this.asked).hasValue(0);
	}

	@Test
	void aSpecEveryCheckLetsThroughAsksTheModeOnce() {
		assertThat(this.runners.refusal(spec(Operation.SET, Mode.PIPELINED, Connector.LETTUCE))).isNull();
		assertThat(this.asked).hasValue(1);
	}

	private static RunSpec spec(Operation operation, Mode mode, Connector connector) {
		return Specs.of(operation, Mode.LOOP, FlushPolicy.FLUSH_ON_CLOSE, 1000, 100, 0)
			.with(new Variant(mode, null, connector));
	}

	private BatchRunner runner(Mode mode, @Nullable String refusal) {
		return new BatchRunner(mode) {

			@Override
			@Nullable String unsupported(RunSpec spec, Topology topology) {
				RunnersTests.this.asked.incrementAndGet();
				return refusal;
			}

			@Override
			void run(Pass pass, long from, long to, Tally tally) {
				throw new UnsupportedOperationException("never sends");
			}

		};
	}

}
