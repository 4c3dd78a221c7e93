package dev.pipelininglab.redis;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/** What the Redis servers did during a timed pass, from their {@code INFO}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerStats(long commands, @Nullable Long reads, @Nullable Long writes, @Nullable Double readsPerCommand,
		@Nullable Double cpuMicrosPerCommand, @Nullable Long inputBytes, @Nullable Long outputBytes,
		@Nullable Long peakOutputBufferBytes, @Nullable Map<String, ServerStats> nodes, @Nullable String scope,
		@Nullable Long evictedKeys, @Nullable Long expiredKeys, @Nullable UsedMemory usedMemoryBytes,
		@Nullable KeyCount keyCount) {

	public record UsedMemory(long before, long after) {
	}

	public record KeyCount(long before, long after) {
	}

	ServerStats withRunWide(Map<String, Map<String, String>> before, Map<String, Map<String, String>> after) {
		Map<String, ServerStats> nodes = (this.nodes != null) ? new java.util.TreeMap<>(this.nodes) : null;
		Long evicted = 0L;
		Long expired = 0L;
		Long usedBefore = 0L;
		Long usedAfter = 0L;
		long keysBefore = 0;
		long keysAfter = 0;
		int masters = 0;
		for (Map.Entry<String, Map<String, String>> node : after.entrySet()) {
			Map<String, String> earlier = before.get(node.getKey());
			if (earlier != null && nodes != null) {
				nodes.computeIfPresent(node.getKey(), (address, stats) -> stats.runWide(earlier, node.getValue()));
			}
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
