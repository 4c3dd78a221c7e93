package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;
import java.util.Objects;

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

	/**
	 * SHA1 digests of the operations' scripts, as Redis computes them; the same on every
	 * server.
	 */
	private static final Map<Operation, String> DIGESTS = new EnumMap<>(Operation.class);

	static {
		for (Operation operation : Operation.values()) {
			if (operation.command() instanceof Command.Scripted scripted) {
				DIGESTS.put(operation, sha1(scripted.script()));
			}
		}
	}

	@Override
	public Mode mode() {
		return Mode.SCRIPT;
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		if (topology.kind() == Topology.Kind.CLUSTER) {
			return "a script may only touch keys of one hash slot, and a batch spans many";
		}
		if (!(spec.operation().command() instanceof Command.Scripted)) {
			return spec.operation().lacks(mode());
		}
		return (spec.ttl() != null) ? "the " + spec.operation().command().name() + " script sets no expiry" : null;
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		Command.Scripted command = (Command.Scripted) pass.command();
		int size = (int) (to - from);
		byte[][] keysAndArgs = command.scriptArguments(pass, from, to);
		// A key per item, the one key, or none (PING).
		int numKeys = pass.command().keyPerItem() ? size : pass.command().keyed() ? 1 : 0;
		ReturnType type = command.scriptReturns();
		Object reply = pass.route()
			.template()
			.execute((RedisCallback<@Nullable Object>) (connection) -> evalSha(connection, pass.operation(), type,
					numKeys, keysAndArgs, command.script()));
		command.countScript(reply, size, tally);
	}

	private Object evalSha(RedisConnection connection, Operation operation, ReturnType type, int numKeys,
			byte[][] keysAndArgs, String script) {
		try {
			return connection.scriptingCommands()
				.evalSha(Objects.requireNonNull(DIGESTS.get(operation), "every operation's script is loaded"), type,
						numKeys, keysAndArgs);
		}
		catch (DataAccessException ex) {
			// Spring's "Error in execution" wraps the reply, so the reply text is on the
			// cause.
			if (!String.valueOf(NestedExceptionUtils.getMostSpecificCause(ex).getMessage()).contains("NOSCRIPT")) {
				throw ex;
			}
			// First use on this server, or it lost its script cache (restart, failover,
			// SCRIPT FLUSH): EVAL runs the same constant script and caches it there, so
			// the next batch's EVALSHA finds it.
			return connection.scriptingCommands()
				.eval(script.getBytes(StandardCharsets.UTF_8), type, numKeys, keysAndArgs);
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

	static byte[] bytes(long number) {
		return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

	static @Nullable List<String> strings(@Nullable List<?> replies) {
		return (replies != null) ? replies.stream()
			.map((reply) -> (reply instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : null)
			.toList() : null;
	}

}
