package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.pipelininglab.run.Operation.GET;
import static dev.pipelininglab.run.Operation.HSET;
import static dev.pipelininglab.run.Operation.INCR;
import static dev.pipelininglab.run.Operation.LPUSH;
import static dev.pipelininglab.run.Operation.MIXED;
import static dev.pipelininglab.run.Operation.PING;
import static dev.pipelininglab.run.Operation.RPOP;
import static dev.pipelininglab.run.Operation.RPUSH;
import static dev.pipelininglab.run.Operation.SADD;
import static dev.pipelininglab.run.Operation.SET;
import static dev.pipelininglab.run.Operation.ZADD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Named.named;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The rules web and job ask an operation about, held by its command: which parameters it
 * takes, what it writes and prepares. Each names the operations it holds for, so a new
 * operation's answers are a decision, not an accident of a default.
 */
class OperationRulesTests {

	static Stream<Arguments> rules() {
		return Stream.of(rule("only SET takes an expiry", Operation::takesTtl, SET),
				rule("only SET and GET walk a key space", Operation::takesKeyWalk, SET, GET),
				rule("only PING has no key", (operation) -> !operation.hasKey(), PING),
				rule("only the mix takes a ratio", Operation::takesRatio, MIXED),
				rule("SET and the mix write a key per item", Operation::writesKeys, SET, MIXED),
				rule("only GET needs its keys written first", Operation::needsPreparedData, GET),
				rule("the key writes and RPOP prepare each pass", Operation::preparesEachPass, SET, RPOP, MIXED),
				rule("only RPUSH is left out of comparisons", (operation) -> !operation.comparable(), RPUSH),
				rule("INCR, RPUSH, PING and the mix have no multi-key form",
						(operation) -> !has(operation, Command.MultiKey.class), PING, RPUSH, INCR, MIXED),
				rule("only RPUSH and the mix have no script", (operation) -> !has(operation, Command.Scripted.class),
						RPUSH, MIXED),
				rule("only SET, GET and the mix run reactive", (operation) -> has(operation, Command.Reactive.class),
						SET, GET, MIXED),
				rule("SET, the collection writes and the mix are read back",
						(operation) -> has(operation, Command.Verified.class), SET, HSET, SADD, ZADD, LPUSH, MIXED));
	}

	private static boolean has(Operation operation, Class<?> capability) {
		return capability.isInstance(operation.command());
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("rules")
	void holdsForExactlyTheOperationsItNames(Predicate<Operation> rule, List<Operation> holdsFor) {
		assertThat(Arrays.stream(Operation.values()).filter(rule)).containsExactlyElementsOf(holdsFor);
	}

	private static Arguments rule(String says, Predicate<Operation> rule, Operation... holdsFor) {
		return arguments(named(says, rule), List.of(holdsFor));
	}

}
