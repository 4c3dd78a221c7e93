package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongFunction;

import dev.pipelininglab.ProblemType;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanStream;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/** Asks the servers, before a run writes its first key, whether it fits. */
@Component
public class Preflight {

	private static final Logger log = LoggerFactory.getLogger(Preflight.class);

	private static final int SCAN_BATCH = 1000;

	private static final long MIN_HEADROOM = 256 << 10;

	private final ServerCounters counters;

	private final ItemCosts costs;

	private final SafetyProperties safety;

	private final KeySpace keys;

	private final NodeConnections.Own connection;

	Preflight(ServerCounters counters, ItemCosts costs, SafetyProperties safety, NodeConnections.Own connection,
			KeySpace keys) {
		this.counters = counters;
		this.costs = costs;
		this.safety = safety;
		this.connection = connection;
		this.keys = keys;
	}

	public record Part(MemoryShape shape, long items, int valueSize, KeySpace keys, long lastIndex,
			@Nullable Map<String, Long> itemsPerMaster) {
	}

	public record Demand(long count, List<Part> parts, List<Part> warmUp, boolean warmUpBeside, long bufferBytes) {
	}

	public record Estimate(Map<String, Long> bytesPerMaster, List<Long> bytesPerItem, Map<String, Long> peakPerMaster) {

		public long bytes() {
			return this.bytesPerMaster.values().stream().mapToLong(Long::longValue).sum();
		}

	}

	public record NodeMemory(String address, long used, long limit, String limitName, long margin,
			@Nullable String policy, Map<String, String> info) {

		long room() {
			return this.limit - this.used - this.margin;
		}

		public long free() {
			return Math.max(0, room());
		}

	}

	public ServerCounters.@Nullable Snapshot check(Demand demand, LongFunction<Demand> atCount) {
		if (!this.safety.preflight() || (demand.parts().isEmpty() && demand.warmUp().isEmpty())) {
			return null;
		}
		ServerCounters.Snapshot before = this.counters.read();
		List<NodeMemory> masters = masters(before);
		if (masters.isEmpty()) {
			log.debug("No master's INFO could be read: the run goes on without a memory preflight");
			return before;
		}
		Estimate estimate = estimate(demand, masters);
		for (NodeMemory master : masters) {
			long need = estimate.peakPerMaster().getOrDefault(master.address(), 0L);
			if (need <= 0 || need <= master.room()) {
				continue;
			}
			long largestItem = estimate.bytesPerItem().stream().mapToLong(Long::longValue).max().orElse(0);
			long fitting = fitting(demand.count(), master, masters, atCount, largestItem);
			String evicts = "maxmemory".equals(master.limitName()) ? evictsOthers(master) : null;
			if (evicts == null) {
				throw new RunRefusedException(ProblemType.RUN_DOES_NOT_FIT, master, need, fitting,
						ProblemType.RUN_DOES_NOT_FIT.detail(size(need), master.address(), size(master.free()),
								master.limitName() + " " + size(master.limit()), size(master.used()),
								this.safety.marginPercent(), advice(fitting, false)));
			}
			if (!this.safety.allowEviction()) {
				throw new RunRefusedException(ProblemType.EVICTION_RISK, master, need, fitting,
						ProblemType.EVICTION_RISK.detail(size(need), master.address(), size(master.free()),
								size(master.limit()), size(master.used()), this.safety.marginPercent(), master.policy(),
								evicts, advice(fitting, true)));
			}
			log.info(
					"A run of about {} goes past maxmemory on {}; maxmemory-policy {} {}, and"
							+ " lab.safety.allow-eviction lets it",
					size(need), master.address(), master.policy(), evicts);
		}
		return before;
	}

	// By bisection: warm-ups and buffers do not grow with the count.
	private long fitting(long count, NodeMemory master, List<NodeMemory> masters, LongFunction<Demand> atCount,
			long largestItem) {
		// Headroom, to fit when asked again: used_memory moves by buffers, a record.
		long room = master.room() - Math.max(Math.max(MIN_HEADROOM, master.limit() / 100), 2 * largestItem);
		long fits = 0;
		long fails = count;
		while (fails - fits > 1) {
			long middle = fits + (fails - fits) / 2;
			long need = estimate(atCount.apply(middle), masters).peakPerMaster().getOrDefault(master.address(), 0L);
			if (need <= room) {
				fits = middle;
			}
			else {
				fails = middle;
			}
		}
		return fits;
	}

	public Estimate estimate(Demand demand) {
		return estimate(demand, masters(this.counters.read()));
	}

	private Estimate estimate(Demand demand, List<NodeMemory> masters) {
		String server = String.join(",",
				masters.stream().map((master) -> master.info().getOrDefault("run_id", master.address())).toList());
		long roomEverywhere = masters.stream().mapToLong(NodeMemory::room).min().orElse(0);
		List<Long> perItem = new ArrayList<>();
		Map<String, Long> perMaster = perMaster(demand.parts(), masters, server, roomEverywhere, perItem);
		Map<String, Long> warmUp = perMaster(demand.warmUp(), masters, server, roomEverywhere, new ArrayList<>());
		Map<String, Long> peak = new LinkedHashMap<>();
		for (NodeMemory master : masters) {
			String address = master.address();
			long items = perMaster.getOrDefault(address, 0L);
			long warm = warmUp.getOrDefault(address, 0L);
			long stored = demand.warmUpBeside() ? items + warm : Math.max(items, warm);
			peak.put(address, (stored > 0) ? stored + demand.bufferBytes() : 0);
		}
		return new Estimate(perMaster, perItem, peak);
	}

	private Map<String, Long> perMaster(List<Part> parts, List<NodeMemory> masters, String server, long roomEverywhere,
			List<Long> perItem) {
		Map<String, Long> perMaster = new LinkedHashMap<>();
		for (Part part : parts) {
			long cost = this.costs.of(part, server, roomEverywhere);
			perItem.add(cost);
			Map<String, Long> shares = part.itemsPerMaster();
			if (shares == null) {
				perMaster.merge(masters.get(0).address(), part.items() * cost, Long::sum);
			}
			else {
				shares.forEach((address, items) -> perMaster.merge(address, items * cost, Long::sum));
			}
		}
		return perMaster;
	}

	private @Nullable String evictsOthers(NodeMemory master) {
		String policy = (master.policy() != null) ? master.policy() : "noeviction";
		if (policy.startsWith("allkeys-")) {
			return "evicts any key";
		}
		if (policy.startsWith("volatile-")) {
			long volatileKeys = ServerStats.perDb(master.info(), "expires");
			long foreign = (volatileKeys > 0) ? volatileKeys - labKeysWithTtl(master.address()) : 0;
			if (foreign > 0) {
				return "evicts keys with a TTL, and about " + foreign + " keys outside the lab's prefix have one";
			}
		}
		return null;
	}

	private long labKeysWithTtl(String address) {
		try {
			RedisReactiveCommands<String, String> node = this.connection.node(address).reactive();
			ScanArgs args = ScanArgs.Builder.matches(this.keys.scanPattern()).limit(SCAN_BATCH);
			return ScanStream.scan(node, args)
				.flatMap(node::pttl)
				.filter((millis) -> millis >= 0)
				.count()
				.blockOptional()
				.orElse(0L);
		}
		catch (RuntimeException ex) {
			// Counting none as the lab's errs on the side of refusing.
			log.debug("Could not count the lab's keys with a TTL on {}: {}", address, ex.toString());
			return 0;
		}
	}

	private List<NodeMemory> masters(ServerCounters.Snapshot snapshot) {
		List<NodeMemory> masters = new ArrayList<>();
		snapshot.nodes().forEach((address, info) -> {
			if (!"master".equals(info.get("role"))) {
				return;
			}
			long used = Objects.requireNonNullElse(ServerStats.number(info, "used_memory"), -1L);
			long maxmemory = Objects.requireNonNullElse(ServerStats.number(info, "maxmemory"), -1L);
			long system = Objects.requireNonNullElse(ServerStats.number(info, "total_system_memory"), -1L);
			long limit = (maxmemory > 0) ? maxmemory : system;
			if (used < 0 || limit <= 0) {
				return;
			}
			masters.add(new NodeMemory(address, used, limit, (maxmemory > 0) ? "maxmemory" : "total_system_memory",
					limit * this.safety.marginPercent() / 100, info.get("maxmemory_policy"), info));
		});
		return masters;
	}

	private static String advice(long fitting, boolean eviction) {
		String count = (fitting > 0) ? "Ask for a count of at most about " + fitting + ", " : "Ask for fewer items, ";
		return count + "smaller values (valueSize) or fewer variants, or free memory (DELETE /keys removes what"
				+ " earlier runs left)"
				+ (eviction ? "; if you own this server and accept losing its keys, set lab.safety.allow-eviction=true"
						: "")
				+ ".";
	}

	static String size(long bytes) {
		if (bytes < 1024) {
			return bytes + " bytes";
		}
		// Each unit is ten more bits: KiB from 2^10, MiB from 2^20 ..., TiB at most.
		int unit = Math.min(4, (63 - Long.numberOfLeadingZeros(bytes)) / 10);
		double value = bytes / Math.pow(1024, unit);
		return String.format(Locale.ROOT, (value < 10) ? "%.1f %s" : "%.0f %s", value, " KMGT".charAt(unit) + "iB");
	}

}
