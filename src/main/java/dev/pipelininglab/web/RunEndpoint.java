package dev.pipelininglab.web;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;

/**
 * A single-run endpoint, {@code /<name>/{count}}: one operation in one mode. {@link #ALL}
 * is made from the operations themselves and is the one list the mappings, the admission
 * gate, the cross-site guard, the index, the parameter catalogue and the API description
 * read, so an operation added to {@link Operation} has its endpoints everywhere at once.
 *
 * @param name the path's first segment, e.g. {@code pipeget}
 * @param description what it sends, for the index and the API description
 */
public record RunEndpoint(String name, Operation operation, Mode mode, String description) {

	/** redis-benchmark's tests, offered with Lettuce only. */
	private static final Set<Operation> LETTUCE_ONLY = EnumSet.of(Operation.INCR, Operation.HSET, Operation.SADD,
			Operation.ZADD, Operation.LPUSH);

	static final List<Way> WAYS = List.of(new Way(Mode.PIPELINED, "pipe", " through executePipelined"),
			new Way(Mode.LOOP, "loop", ", one blocking call each"));

	/** What {@code /compare} and {@code /sweep} take as {@code op}. */
	static final List<String> OPERATIONS = Stream.of(Operation.values())
		.filter(Operation::comparable)
		.map(Operation::label)
		.toList();

	/** Every operation in every way; RPUSH, which only fills data, as listinput. */
	static final List<RunEndpoint> ALL = Stream.concat(
			Stream.of(Operation.values())
				.filter(Operation::comparable)
				.flatMap((operation) -> WAYS.stream()
					.map((way) -> new RunEndpoint(way.prefix() + operation.label(), operation, way.mode(),
							operation.summary() + way.suffix()))),
			Stream.of(Operation.values())
				.filter((operation) -> !operation.comparable())
				.map((operation) -> new RunEndpoint("listinput", operation, Mode.PIPELINED,
						operation.summary() + " (pipelined) so RPOP has data")))
		.toList();

	String path() {
		return "/" + this.name + "/{count}";
	}

	String example() {
		return "/" + this.name + "/10000";
	}

	/** Whether {@code connector=} applies (to the loop, {@code connection=} too). */
	boolean takesConnector() {
		return !LETTUCE_ONLY.contains(this.operation);
	}

	static List<String> paths(Predicate<RunEndpoint> which) {
		return ALL.stream().filter(which).map(RunEndpoint::path).toList();
	}

	/** Every run endpoint's first path segment, and any name in one of the ways. */
	public static String namesPattern() {
		return Stream.concat(WAYS.stream().map((way) -> way.prefix() + "[a-z]+"), ALL.stream().map(RunEndpoint::name))
			.collect(Collectors.joining("|"));
	}

	record Way(Mode mode, String prefix, String suffix) {
	}

}
