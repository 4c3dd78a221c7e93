package dev.pipelininglab.redis;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * What the Redis servers did during a timed pass, from their own {@code INFO} counters
 * read before and after it: server-wide deltas, so other clients' commands and the INFO
 * calls themselves count too. A field a server does not report is left out.
 *
 * @param commands commands processed ({@code total_commands_processed})
 * @param reads read() calls on client sockets ({@code total_reads_processed}, Redis
 * 6.0+): what pipelining saves the server, one per command in a loop
 * @param writes write() calls to client sockets ({@code total_writes_processed})
 * @param readsPerCommand {@code reads / commands}: about 1 for a loop, far below for a
 * pipeline
 * @param cpuMicrosPerCommand server CPU ({@code used_cpu_user + used_cpu_sys}) per
 * command, in microseconds
 * @param inputBytes bytes received ({@code total_net_input_bytes})
 * @param outputBytes bytes sent ({@code total_net_output_bytes})
 * @param peakOutputBufferBytes the largest reply buffer any client had in the last few
 * seconds, read after the pass ({@code client_recent_max_output_buffer}; sampled by the
 * server's cron, so a burst shorter than its period may be missed): the reply memory a
 * pipeline makes the server hold, and batching bounds; on a cluster the largest over the
 * nodes
 * @param nodes on more than one node: the same per node, keyed by {@code host:port}
 * @param scope how to read these figures
 * @param evictedKeys keys the servers evicted ({@code evicted_keys}) from before the run
 * wrote its first key (the preflight's reading; a run that writes nothing: its first
 * timed pass) until it was verified: more than 0 means Redis deleted keys, the lab's or
 * anyone's, to stay under {@code maxmemory}
 * @param expiredKeys keys whose TTL ran out over the same span ({@code expired_keys})
 * @param usedMemoryBytes {@code used_memory} before the run wrote its first key and after
 * it was verified
 * @param keyCount the keys the servers held (INFO keyspace, every database) over the same
 * span: what the run added, and what anything else did meanwhile
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerStats(long commands, @Nullable Long reads, @Nullable Long writes, @Nullable Double readsPerCommand,
		@Nullable Double cpuMicrosPerCommand, @Nullable Long inputBytes, @Nullable Long outputBytes,
		@Nullable Long peakOutputBufferBytes, @Nullable Map<String, ServerStats> nodes, @Nullable String scope,
		@Nullable Long evictedKeys, @Nullable Long expiredKeys, @Nullable UsedMemory usedMemoryBytes,
		@Nullable KeyCount keyCount) {

	/**
	 * @param before {@code used_memory} before the run wrote its first key
	 * @param after the same once it was verified (before its keys got their expiry)
	 */
	public record UsedMemory(long before, long after) {
	}

	/**
	 * @param before keys the server held before the run wrote its first key
	 * @param after the same once it was verified
	 */
	public record KeyCount(long before, long after) {
	}

	/**
	 * The same figures with the run-wide ones: on every node, and in total over the
	 * masters.
	 */
	ServerStats withRunWide(Map<String, Map<String, String>> before, Map<String, Map<String, String>> after) {
		Map<String, ServerStats> nodes = null;
		if (this.nodes != null) {
			nodes = new java.util.TreeMap<>();
			for (Map.Entry<String, ServerStats> node : this.nodes.entrySet()) {
				Map<String, String> earlier = before.get(node.getKey());
				Map<String, String> later = after.get(node.getKey());
				nodes.put(node.getKey(),
						(earlier != null && later != null) ? node.getValue().runWide(earlier, later) : node.getValue());
			}
		}
		Long evicted = 0L;
		Long expired = 0L;
		Long usedBefore = 0L;
		Long usedAfter = 0L;
		long keysBefore = 0;
		long keysAfter = 0;
		int masters = 0;
		for (Map.Entry<String, Map<String, String>> node : after.entrySet()) {
			Map<String, String> earlier = before.get(node.getKey());
			if (earlier == null || "slave".equals(node.getValue().get("role"))) {
				continue;
			}
			masters++;
			evicted = sum(evicted, diff(earlier, node.getValue(), "evicted_keys"));
			expired = sum(expired, diff(earlier, node.getValue(), "expired_keys"));
			usedBefore = sum(usedBefore, number(earlier, "used_memory"));
			usedAfter = sum(usedAfter, number(node.getValue(), "used_memory"));
			keysBefore += keysIn(earlier);
			keysAfter += keysIn(node.getValue());
		}
		if (masters == 0) {
			evicted = null;
			expired = null;
		}
		UsedMemory used = (masters > 0 && usedBefore != null && usedAfter != null)
				? new UsedMemory(usedBefore, usedAfter) : null;
		return new ServerStats(this.commands, this.reads, this.writes, this.readsPerCommand, this.cpuMicrosPerCommand,
				this.inputBytes, this.outputBytes, this.peakOutputBufferBytes, nodes, this.scope, evicted, expired,
				used, (masters > 0) ? new KeyCount(keysBefore, keysAfter) : null);
	}

	private ServerStats runWide(Map<String, String> before, Map<String, String> after) {
		Long usedBefore = number(before, "used_memory");
		Long usedAfter = number(after, "used_memory");
		return new ServerStats(this.commands, this.reads, this.writes, this.readsPerCommand, this.cpuMicrosPerCommand,
				this.inputBytes, this.outputBytes, this.peakOutputBufferBytes, null, null,
				diff(before, after, "evicted_keys"), diff(before, after, "expired_keys"),
				(usedBefore != null && usedAfter != null) ? new UsedMemory(usedBefore, usedAfter) : null,
				new KeyCount(keysIn(before), keysIn(after)));
	}

	static ServerStats delta(Map<String, String> before, Map<String, String> after) {
		long commands = orZero(diff(before, after, "total_commands_processed"));
		Long reads = diff(before, after, "total_reads_processed");
		Double cpu = cpuSeconds(after);
		Double cpuBefore = cpuSeconds(before);
		Double cpuMicros = (cpu != null && cpuBefore != null) ? (cpu - cpuBefore) * 1e6 : null;
		return of(commands, reads, diff(before, after, "total_writes_processed"), cpuMicros,
				diff(before, after, "total_net_input_bytes"), diff(before, after, "total_net_output_bytes"),
				number(after, "client_recent_max_output_buffer"), null);
	}

	/**
	 * The sum over the {@code counted} nodes (the largest peak), with every node listed
	 * when more than one.
	 */
	static ServerStats total(Map<String, ServerStats> nodes, Map<String, ServerStats> counted) {
		if (nodes.size() == 1) {
			return nodes.values().iterator().next().withScope();
		}
		long commands = 0;
		Long reads = 0L;
		Long writes = 0L;
		Double cpuMicros = 0.0;
		Long input = 0L;
		Long output = 0L;
		Long peak = 0L;
		for (ServerStats node : counted.values()) {
			commands += node.commands;
			reads = sum(reads, node.reads);
			writes = sum(writes, node.writes);
			cpuMicros = (cpuMicros != null && node.cpuMicros() != null) ? cpuMicros + node.cpuMicros() : null;
			input = sum(input, node.inputBytes);
			output = sum(output, node.outputBytes);
			peak = (peak != null && node.peakOutputBufferBytes != null) ? Math.max(peak, node.peakOutputBufferBytes)
					: null;
		}
		return of(commands, reads, writes, cpuMicros, input, output, peak, nodes).withScope();
	}

	private static ServerStats of(long commands, @Nullable Long reads, @Nullable Long writes,
			@Nullable Double cpuMicros, @Nullable Long input, @Nullable Long output, @Nullable Long peak,
			@Nullable Map<String, ServerStats> nodes) {
		Double readsPerCommand = (reads != null && commands > 0) ? round((double) reads / commands, 4) : null;
		Double cpuPerCommand = (cpuMicros != null && commands > 0) ? round(cpuMicros / commands, 3) : null;
		return new ServerStats(commands, reads, writes, readsPerCommand, cpuPerCommand, input, output, peak, nodes,
				null, null, null, null, null);
	}

	private ServerStats withScope() {
		return new ServerStats(this.commands, this.reads, this.writes, this.readsPerCommand, this.cpuMicrosPerCommand,
				this.inputBytes, this.outputBytes, this.peakOutputBufferBytes, this.nodes, ServerCounters.SCOPE,
				this.evictedKeys, this.expiredKeys, this.usedMemoryBytes, this.keyCount);
	}

	/** Total server CPU in microseconds, back from the per-command figure. */
	private @Nullable Double cpuMicros() {
		return (this.cpuMicrosPerCommand != null) ? this.cpuMicrosPerCommand * this.commands : null;
	}

	static @Nullable Double cpuSeconds(Map<String, String> info) {
		try {
			return Double.parseDouble(info.get("used_cpu_user")) + Double.parseDouble(info.get("used_cpu_sys"));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static @Nullable Long diff(Map<String, String> before, Map<String, String> after, String field) {
		Long earlier = number(before, field);
		Long later = number(after, field);
		return (earlier != null && later != null) ? later - earlier : null;
	}

	private static @Nullable Long number(Map<String, String> info, String field) {
		try {
			return Long.parseLong(info.get(field));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Keys over every database, from INFO keyspace's {@code db<n>:keys=<k>,...} lines.
	 */
	private static long keysIn(Map<String, String> info) {
		long keys = 0;
		for (Map.Entry<String, String> line : info.entrySet()) {
			if (line.getKey().matches("db\\d+") && line.getValue().startsWith("keys=")) {
				int end = line.getValue().indexOf(',');
				keys += Long
					.parseLong(line.getValue().substring("keys=".length(), (end < 0) ? line.getValue().length() : end));
			}
		}
		return keys;
	}

	private static @Nullable Long sum(@Nullable Long total, @Nullable Long value) {
		return (total != null && value != null) ? total + value : null;
	}

	private static long orZero(@Nullable Long value) {
		return (value != null) ? value : 0;
	}

	private static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

}
