package dev.pipelininglab.run;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.script.DigestUtils;
import org.springframework.stereotype.Component;

/**
 * The Redis docs' "pipelining vs scripting": one EVALSHA per batch of a constant Lua
 * script (never a request's text). A server that does not know it yet gets one EVAL,
 * which caches it where it ran: Lettuce counts SCRIPT LOAD as a read, so with replica
 * reads it would load the script on a replica while EVALSHA runs on the master.
 */
@Component
class ScriptRunner extends BatchRunner {

	ScriptRunner() {
		super(Mode.SCRIPT);
	}

	/** As Redis computes them: the same on every server. */
	private static final Map<Operation, String> DIGESTS = new EnumMap<>(Operation.class);

	static {
		for (Operation operation : Operation.values()) {
			if (operation.command() instanceof Command.Scripted scripted) {
				DIGESTS.put(operation, DigestUtils.sha1DigestAsHex(scripted.script()));
			}
		}
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
			.execute((RedisCallback<@Nullable Object>) (connection) -> evalSha(connection, pass.spec().operation(),
					type, numKeys, keysAndArgs, command.script()));
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
			// Spring's "Error in execution" wraps the reply: its text is on the cause.
			if (!String.valueOf(NestedExceptionUtils.getMostSpecificCause(ex).getMessage()).contains("NOSCRIPT")) {
				throw ex;
			}
			// First use here, or the cache was lost (restart, failover, SCRIPT FLUSH).
			return connection.scriptingCommands()
				.eval(script.getBytes(StandardCharsets.UTF_8), type, numKeys, keysAndArgs);
		}
	}

	static byte[] bytes(long number) {
		return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
	}

}
