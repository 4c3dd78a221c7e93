package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules web and job ask an operation about, held by its command: which parameters it
 * takes, what it writes and prepares. Each names the operations it holds for, so a new
 * operation's answers are a decision, not an accident of a default.
 */
class OperationRulesTests {

	@Test
	void onlySetTakesAnExpiry() {
		assertThat(holdingFor(Operation::takesTtl)).containsExactly(Operation.SET);
	}

	@Test
	void onlySetAndGetWalkAKeySpace() {
		assertThat(holdingFor(Operation::takesKeyWalk)).containsExactly(Operation.SET, Operation.GET);
	}

	@Test
	void onlyPingHasNoKey() {
		assertThat(holdingFor((operation) -> !operation.hasKey())).containsExactly(Operation.PING);
	}

	@Test
	void onlyTheMixTakesARatio() {
		assertThat(holdingFor(Operation::takesRatio)).containsExactly(Operation.MIXED);
	}

	@Test
	void setAndTheMixWriteAKeyPerItem() {
		assertThat(holdingFor(Operation::writesKeys)).containsExactly(Operation.SET, Operation.MIXED);
	}

	@Test
	void onlyGetNeedsItsKeysWrittenFirst() {
		assertThat(holdingFor(Operation::needsPreparedData)).containsExactly(Operation.GET);
	}

	@Test
	void theKeyWritesAndRpopPrepareEachPass() {
		assertThat(holdingFor(Operation::preparesEachPass)).containsExactly(Operation.SET, Operation.RPOP,
				Operation.MIXED);
	}

	@Test
	void everyOperationButRpushIsCompared() {
		assertThat(holdingFor((operation) -> !operation.comparable())).containsExactly(Operation.RPUSH);
	}

	private static Operation[] holdingFor(Predicate<Operation> rule) {
		return Arrays.stream(Operation.values()).filter(rule).toArray(Operation[]::new);
	}

}
