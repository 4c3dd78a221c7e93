package dev.pipelininglab.run;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Variant labels: {@code pipelined-by-node} is a mode of its own, not a flush policy of
 * {@code pipelined}.
 */
class VariantTests {

	@Test
	void pipelinedByNodeIsAModeNotAFlushPolicy() {
		Variant byNode = Variant.valueOf("pipelined-by-node");
		assertThat(byNode.mode()).isEqualTo(Mode.PIPELINED_BY_NODE);
		assertThat(byNode.flushPolicy()).isNull();
		assertThat(byNode.label()).isEqualTo("pipelined-by-node");
		assertThat(Variant.valueOf("jedis-pipelined-by-node").connector()).isEqualTo(Connector.JEDIS);
		assertThat(Variant.valueOf("pipelined-buffered-10").flushPolicy()).isEqualTo(FlushPolicy.buffered(10));
	}

	@Test
	void pipelinedByNodeTakesNoWayOfWriting() {
		assertThatIllegalArgumentException().isThrownBy(() -> Variant.valueOf("pipelined-by-node-per-flush"))
			.withMessageContaining("pipelined-by-node-per-flush");
	}

}
