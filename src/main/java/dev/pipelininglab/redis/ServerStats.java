package dev.pipelininglab.redis;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

	public ServerStats withRunWide(ServerCounters.@Nullable Snapshot before, ServerCounters.Snapshot after) {
		if (before == null) {
			return this;
		}
		Map<String, ServerStats> nodes = (this.nodes != null) ? new TreeMap<>(this.nodes) : null;
		RunWide masters = null;
		for (Map.Entry<String, Map<String, String>> node : after.nodes().entrySet()) {
			Map<String, String> earlier = before.nodes().get(node.getKey());
			if (earlier == null) {
				continue;
			}
			RunWide run = RunWide.between(earlier, node.getValue());
			if (nodes != null) {
				nodes.computeIfPresent(node.getKey(), (address, stats) -> stats.with(null, null, run));
			}
			if (!"slave".equals(node.getValue().get("role"))) {
				masters = (masters != null) ? masters.plus(run) : run;
			}
		}
		return with(nodes, this.scope, masters);
	}

	static ServerStats delta(Map<String, String> before, Map<String, String> after) {
		long commands = Objects.requireNonNullElse(diff(before, after, "total_commands_processed"), 0L);
		Long reads = diff(before, after, "total_reads_processed");
		Double cpu = cpuSeconds(after);
		Double cpuBefore = cpuSeconds(before);
		Double cpuMicros = (cpu != null && cpuBefore != null) ? (cpu - cpuBefore) * 1e6 : null;
		return of(commands, reads, diff(before, after, "total_writes_processed"), cpuMicros,
				diff(before, after, "total_net_input_bytes"), diff(before, after, "total_net_output_bytes"),
				number(after, "client_recent_max_output_buffer"));
	}

	static ServerStats total(Map<String, ServerStats> nodes, Map<String, ServerStats> counted) {
		if (nodes.size() == 1) {
			return nodes.values().iterator().next().with(null, ServerCounters.SCOPE, null);
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
		return of(commands, reads, writes, cpuMicros, input, output, peak).with(nodes, ServerCounters.SCOPE, null);
	}

	private static ServerStats of(long commands, @Nullable Long reads, @Nullable Long writes,
			@Nullable Double cpuMicros, @Nullable Long input, @Nullable Long output, @Nullable Long peak) {
		Double readsPerCommand = (reads != null && commands > 0) ? round((double) reads / commands, 4) : null;
		Double cpuPerCommand = (cpuMicros != null && commands > 0) ? round(cpuMicros / commands, 3) : null;
		return new ServerStats(commands, reads, writes, readsPerCommand, cpuPerCommand, input, output, peak, null, null,
				null, null, null, null);
	}

	private ServerStats with(@Nullable Map<String, ServerStats> nodes, @Nullable String scope, @Nullable RunWide run) {
		return new ServerStats(this.commands, this.reads, this.writes, this.readsPerCommand, this.cpuMicrosPerCommand,
				this.inputBytes, this.outputBytes, this.peakOutputBufferBytes, nodes, scope,
				(run != null) ? run.evicted() : null, (run != null) ? run.expired() : null,
				(run != null) ? run.used() : null, (run != null) ? run.keys() : null);
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

	static @Nullable Long number(Map<String, String> info, String field) {
		try {
			return Long.parseLong(info.get(field));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	// Summed over INFO's keyspace lines, e.g. db0:keys=12,expires=3,avg_ttl=0.
	static long perDb(Map<String, String> info, String field) {
		Pattern number = Pattern.compile("\\b" + field + "=(\\d+)");
		return info.entrySet()
			.stream()
			.filter((line) -> line.getKey().matches("db\\d+"))
			.map((line) -> number.matcher(line.getValue()))
			.filter(Matcher::find)
			.mapToLong((found) -> Long.parseLong(found.group(1)))
			.sum();
	}

	private static @Nullable Long sum(@Nullable Long total, @Nullable Long value) {
		return (total != null && value != null) ? total + value : null;
	}

	private static double round(double value, int decimals) {
		double scale = Math.pow(10, decimals);
		return Math.round(value * scale) / scale;
	}

	// What a node's keys and memory did from before a run's first write to its
	// verification.
	private record RunWide(@Nullable Long evicted, @Nullable Long expired, @Nullable UsedMemory used, KeyCount keys) {

		static RunWide between(Map<String, String> before, Map<String, String> after) {
			Long usedBefore = number(before, "used_memory");
			Long usedAfter = number(after, "used_memory");
			return new RunWide(diff(before, after, "evicted_keys"), diff(before, after, "expired_keys"),
					(usedBefore != null && usedAfter != null) ? new UsedMemory(usedBefore, usedAfter) : null,
					new KeyCount(perDb(before, "keys"), perDb(after, "keys")));
		}

		RunWide plus(RunWide other) {
			UsedMemory used = (this.used != null && other.used != null)
					? new UsedMemory(this.used.before() + other.used.before(), this.used.after() + other.used.after())
					: null;
			return new RunWide(sum(this.evicted, other.evicted), sum(this.expired, other.expired), used,
					new KeyCount(this.keys.before() + other.keys.before(), this.keys.after() + other.keys.after()));
		}

	}

}
