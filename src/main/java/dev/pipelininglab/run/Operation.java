package dev.pipelininglab.run;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.pipelininglab.redis.KeySpace;
import org.jspecify.annotations.Nullable;

/**
 * The Redis command a run sends, once per item. INCR, HSET, SADD, ZADD and LPUSH are
 * redis-benchmark's default tests and, like there, each works on one key of its own;
 * MIXED interleaves SETs and GETs like memtier's {@code --ratio}.
 */
public enum Operation {

	SET(new SetCommand(), "SET count keys"), GET(new GetCommand(), "GET count keys"),
	RPOP(new RpopCommand(), "RPOP count elements of the demo list"), PING(new PingCommand(), "PING count times"),
	RPUSH(new RpushCommand(), "RPUSH count elements onto the demo list"),
	INCR(new IncrCommand(), "INCR one counter count times"), HSET(new HsetCommand(), "HSET count fields of one hash"),
	SADD(new SaddCommand(), "SADD count members to one set"),
	ZADD(new ZaddCommand(), "ZADD count members to one sorted set, scored by index"),
	LPUSH(new LpushCommand(), "LPUSH count elements onto the demo list"),
	MIXED(new MixedCommand(Ratio.DEFAULT), "SETs and GETs interleaved as ratio= says (default 1:10)");

	private final Command command;

	private final String summary;

	Operation(Command command, String summary) {
		this.command = command;
		this.summary = summary;
	}

	/** The run endpoints' descriptions start with it. */
	public String summary() {
		return this.summary;
	}

	Command command() {
		return this.command;
	}

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** Whether {@code valueSize} applies. */
	public boolean carriesValues() {
		return this.command.carriesValues();
	}

	/** The one key every command of the run works on, or null. */
	public @Nullable String key(KeySpace keys) {
		return this.command.key(keys);
	}

	public boolean takesTtl() {
		return this.command instanceof Command.Expiring;
	}

	/**
	 * Whether {@code keys=}, {@code pattern=} and {@code seed=} apply: not to a mix,
	 * whose GETs read the keys its SETs wrote.
	 */
	public boolean takesKeyWalk() {
		return this.command.keyPerItem() && !takesRatio();
	}

	public boolean hasKey() {
		return this.command.keyed();
	}

	public boolean takesRatio() {
		return this.command instanceof MixedCommand;
	}

	/** Its keys are deleted before each pass and read back after it. */
	public boolean writesKeys() {
		return this.command.writesKeyPerItem();
	}

	public boolean needsPreparedData() {
		return this.command instanceof Command.Prepared;
	}

	public boolean preparesEachPass() {
		return this.command.showsPreparing();
	}

	/** RPUSH only fills the list RPOP pops, so it runs alone, as /listinput does. */
	public boolean comparable() {
		return this != RPUSH;
	}

	/** Why variant {@code mode} cannot send it: every such answer is written here. */
	String lacks(Mode mode) {
		String name = this.command.name();
		String fillsOnly = "the lab fills lists with pipelined RPUSH only";
		String interleaved = "only a per-item variant keeps SETs and GETs interleaved item by item";
		return switch (mode) {
			case MULTI_KEY -> switch (this) {
				case INCR -> "INCR has no multi-argument form (INCRBY would add the batch in one command, which is"
						+ " different work)";
				case RPUSH -> fillsOnly + " (LPUSH has a multi-argument form)";
				case MIXED -> "a batch as one MSET and one MGET would send every SET before every GET; " + interleaved;
				default -> name + " has no multi-key form";
			};
			case MULTI_KEY_HASHTAG -> switch (this) {
				case RPUSH -> fillsOnly;
				case RPOP -> "RPOP key count works on one key already (variant multi-key)";
				case PING -> "PING has no keys";
				default -> name + " works on one key already, so its slot is one (variant multi-key)";
			};
			case SCRIPT -> (this == RPUSH) ? fillsOnly + " (LPUSH has a script)"
					: "the lab's scripts each run one command over a batch's keys; " + interleaved;
			case PIPELINED_BY_NODE -> (this == PING) ? "PING has no key, so no master to group it by"
					: name + " works on one key, so a whole batch goes to one master: variant pipelined sends exactly"
							+ " that";
			case REACTIVE -> "the reactive variant sends SET and GET, the commands it is compared on";
			default -> throw new IllegalArgumentException(mode.label() + " asks nothing of an operation");
		};
	}

	public static Optional<Operation> fromLabel(String label) {
		return Arrays.stream(values()).filter((op) -> op.label().equals(label)).findFirst();
	}

}
