package dev.pipelininglab.run;

import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.redis.ServerStats;
import org.jspecify.annotations.Nullable;

/**
 * What a read-back found of the keys a run or a fleet's share wrote; {@code changed}:
 * there with another value, written over by another client.
 */
public record ReadBack(long verified, long missing, long changed) {

	public static final ReadBack NONE = new ReadBack(0, 0, 0);

	/** The keys Redis holds, with the run's value or not. */
	public long keys() {
		return this.verified + this.changed;
	}

	public ReadBack plus(ReadBack other) {
		return new ReadBack(this.verified + other.verified, this.missing + other.missing, this.changed + other.changed);
	}

	/**
	 * Why fewer than {@code expected} items read back as written, as a run's note says
	 * it; null when none fell short.
	 */
	public @Nullable String shortfall(long expected, @Nullable ServerStats server, boolean ttl) {
		long short_ = expected - this.verified;
		if (short_ <= 0) {
			return null;
		}
		List<String> reasons = new ArrayList<>();
		Long evicted = (server != null) ? server.evictedKeys() : null;
		Long expired = (server != null) ? server.expiredKeys() : null;
		if (this.missing > 0) {
			if (evicted != null && evicted > 0) {
				reasons
					.add(this.missing + " were missing: evicted (Redis evicted " + evicted + " keys during the run)");
			}
			else if (ttl || (expired != null && expired > 0)) {
				reasons.add(this.missing + " were missing: expired"
						+ ((expired != null) ? " (" + expired + " keys expired during the run)" : ""));
			}
			else {
				reasons.add(this.missing + " were missing for an unknown reason (Redis neither evicted nor expired"
						+ " keys; another client may have deleted them, or a failover lost writes)");
			}
		}
		if (this.changed > 0) {
			reasons.add(this.changed + " held another value: overwritten by another client");
		}
		return short_ + " of the " + expected + " items written did not read back as written: "
				+ String.join("; ", reasons) + ".";
	}

}
