package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Topology;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.stereotype.Component;

/**
 * The Redis docs' "pipelining vs scripting": one EVALSHA per batch runs a fixed Lua
 * script that does the whole batch inside the server. The scripts are constants; no
 * request ever supplies script text, and keys come from the demo key space only.
 * <p>
 * The digests are computed here, and a server that does not know a script yet gets it
 * through one EVAL, which caches it where it ran. SCRIPT LOAD would not do: Lettuce
 * counts SCRIPT among read-only commands, so with replica reads it loads the script on a
 * replica while EVALSHA (a write) runs on the master.
 */
@Component
class ScriptRunner implements BatchRunner {

	private static final Map<Operation, String> SCRIPTS = new EnumMap<>(Map.ofEntries(
			Map.entry(Operation.SET, "for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[i]) end return #KEYS"),
			Map.entry(Operation.GET,
					"local values = {} for i, key in ipairs(KEYS) do values[i] = redis.call('GET', key) end"
							+ " return values"),
			Map.entry(Operation.RPOP,
					"local popped = {} for i = 1, tonumber(ARGV[1]) do local value = redis.call('RPOP',"
							+ " KEYS[1]) if not value then break end popped[i] = value end return popped"),
			Map.entry(Operation.PING,
					"for i = 1, tonumber(ARGV[1]) do redis.call('PING') end return tonumber(ARGV[1])"),
			Map.entry(Operation.INCR,
					"for i = 1, tonumber(ARGV[1]) do redis.call('INCR', KEYS[1]) end return tonumber(ARGV[1])"),
			// One command per item inside the server, as the other variants send them;
			// the
			// multi-argument forms are the multi-key variant's.
			Map.entry(Operation.HSET,
					"for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end return #ARGV / 2"),
			Map.entry(Operation.SADD,
					"for i, member in ipairs(ARGV) do redis.call('SADD', KEYS[1], member) end" + " return #ARGV"),
			Map.entry(Operation.ZADD,
					"for i = 1, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end return #ARGV / 2"),
			Map.entry(Operation.LPUSH,
					"for i, value in ipairs(ARGV) do redis.call('LPUSH', KEYS[1], value) end return #ARGV")));

	/** SHA1 digests of the scripts, as Redis computes them; the same on every server. */
	private static final Map<Operation, String> DIGESTS = new EnumMap<>(Operation.class);

	static {
		SCRIPTS.forEach((operation, script) -> DIGESTS.put(operation, sha1(script)));
	}

	@Override
	public Mode mode() {
		return Mode.SCRIPT;
	}

	@Override
	public String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() == Topology.Kind.CLUSTER) {
			return "a script may only touch keys of one hash slot, and a batch spans many";
		}
		if (!SCRIPTS.containsKey(spec.operation())) {
			return "the lab fills lists with pipelined RPUSH only (LPUSH has a script)";
		}
		return (spec.ttl() != null) ? "the SET script sets no expiry" : null;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		KeySpace keys = pass.keys();
		int size = (int) (to - from);
		byte[][] keysAndArgs;
		int numKeys;
		switch (pass.operation()) {
			case SET -> {
				numKeys = size;
				keysAndArgs = new byte[size * 2][];
				for (int i = 0; i < size; i++) {
					keysAndArgs[i] = keys.keyBytes(from + i);
					keysAndArgs[size + i] = pass.valueBytes(from + i);
				}
			}
			case GET -> {
				numKeys = size;
				keysAndArgs = new byte[size][];
				for (int i = 0; i < size; i++) {
					keysAndArgs[i] = keys.keyBytes(from + i);
				}
			}
			case RPOP -> {
				numKeys = 1;
				keysAndArgs = new byte[][] { keys.listKeyBytes(), bytes(size) };
			}
			case INCR -> {
				numKeys = 1;
				keysAndArgs = new byte[][] { pass.keyBytes(), bytes(size) };
			}
			case HSET, ZADD -> {
				numKeys = 1;
				keysAndArgs = new byte[1 + size * 2][];
				keysAndArgs[0] = pass.keyBytes();
				for (int i = 0; i < size; i++) {
					long item = from + i;
					keysAndArgs[1 + i * 2] = (pass.operation() == Operation.HSET) ? keys.fieldBytes(item) : bytes(item);
					keysAndArgs[2 + i * 2] = pass.valueBytes(item);
				}
			}
			case SADD, LPUSH -> {
				numKeys = 1;
				keysAndArgs = new byte[1 + size][];
				keysAndArgs[0] = pass.keyBytes();
				for (int i = 0; i < size; i++) {
					keysAndArgs[1 + i] = pass.valueBytes(from + i);
				}
			}
			default -> {
				numKeys = 0;
				keysAndArgs = new byte[][] { bytes(size) };
			}
		}
		ReturnType type = (pass.operation() == Operation.GET || pass.operation() == Operation.RPOP) ? ReturnType.MULTI
				: ReturnType.INTEGER;
		Object reply = pass.route()
			.template()
			.execute((RedisCallback<Object>) (connection) -> evalSha(connection, pass.operation(), type, numKeys,
					keysAndArgs));
		switch (pass.operation()) {
			case SET, HSET, SADD, ZADD, LPUSH, INCR -> {
				for (int i = 0; i < size; i++) {
					tally.value(null);
				}
			}
			case PING -> {
				for (int i = 0; i < size; i++) {
					tally.value("PONG");
				}
			}
			default -> MultiKeyRunner.countAll(strings((List<?>) reply), size, tally);
		}
	}

	private Object evalSha(RedisConnection connection, Operation operation, ReturnType type, int numKeys,
			byte[][] keysAndArgs) {
		try {
			return connection.scriptingCommands().evalSha(DIGESTS.get(operation), type, numKeys, keysAndArgs);
		}
		catch (DataAccessException ex) {
			// Spring's "Error in execution" wraps the reply, so the reply text is on the
			// cause.
			if (!String.valueOf(NestedExceptionUtils.getMostSpecificCause(ex).getMessage()).contains("NOSCRIPT")) {
				throw ex;
			}
			// First use on this server, or it lost its script cache (restart, failover,
			// SCRIPT FLUSH): EVAL runs the
			// same constant script and caches it there, so the next batch's EVALSHA finds
			// it.
			byte[] script = SCRIPTS.get(operation).getBytes(StandardCharsets.UTF_8);
			return connection.scriptingCommands().eval(script, type, numKeys, keysAndArgs);
		}
	}

	private static String sha1(String script) {
		try {
			return java.util.HexFormat.of()
				.formatHex(java.security.MessageDigest.getInstance("SHA-1")
					.digest(script.getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java runtime has SHA-1", ex);
		}
	}

	private static byte[] bytes(long number) {
		return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

	private static List<String> strings(List<?> replies) {
		return (replies != null) ? replies.stream()
			.map((reply) -> (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : null)
			.toList() : null;
	}

}
