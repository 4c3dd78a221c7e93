package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/** Why Redis lost keys during a run, as far as the servers tell. */
final class Shortfall {

	private Shortfall() {
	}

	static @Nullable String evictions(@Nullable ServerStats server) {
		Long evicted = (server != null) ? server.evictedKeys() : null;
		if (evicted == null || evicted == 0) {
			return null;
		}
		return "Redis evicted " + evicted + " keys during this run to stay under maxmemory: keys that are not the"
				+ " lab's may be among them.";
	}

	/** Why fewer items were read back than were written; null when none is missing. */
	static @Nullable String reason(long expected, DemoData.ReadBack readBack, @Nullable ServerStats server,
			boolean ttl) {
		long short_ = expected - readBack.verified();
		if (short_ <= 0) {
			return null;
		}
		List<String> reasons = new ArrayList<>();
		long missing = readBack.missing();
		Long evicted = (server != null) ? server.evictedKeys() : null;
		Long expired = (server != null) ? server.expiredKeys() : null;
		if (missing > 0) {
			if (evicted != null && evicted > 0) {
				reasons.add(missing + " were missing: evicted (Redis evicted " + evicted + " keys during the run)");
			}
			else if (ttl || (expired != null && expired > 0)) {
				reasons.add(missing + " were missing: expired"
						+ ((expired != null) ? " (" + expired + " keys expired during the run)" : ""));
			}
			else {
				reasons.add(missing + " were missing for an unknown reason (Redis neither evicted nor expired keys;"
						+ " another client may have deleted them, or a failover lost writes)");
			}
		}
		if (readBack.changed() > 0) {
			reasons.add(readBack.changed() + " held another value: overwritten by another client");
		}
		return short_ + " of the " + expected + " items written did not read back as written: "
				+ String.join("; ", reasons) + ".";
	}

}
