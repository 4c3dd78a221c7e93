package dev.pipelininglab.run;

import java.time.Duration;
import java.util.stream.IntStream;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Sharing;
import dev.pipelininglab.redis.Writes;
import org.jspecify.annotations.Nullable;

/**
 * Everything that defines one measured run; every way into the app becomes one of these.
 * Bounds are checked where requests arrive; this record only guards its invariants.
 *
 * @param workload a batch whose values would exceed its byte budget is shrunk here, and
 * the workload remembers the size asked for
 * @param writes null for {@code lab.pipeline.writes}
 */
public record RunSpec(Operation operation, Mode mode, FlushPolicy flushPolicy, long count, int batchSize, int sample,
		@Nullable Duration ttl, @Nullable Duration addedRtt, int repeat, Workload workload, Senders senders,
		@Nullable Writes writes) {

	public RunSpec {
		if (count < 1 || batchSize < 1 || sample < 0 || repeat < 1) {
			throw new IllegalArgumentException("count, batchSize and repeat must be positive, sample not negative");
		}
		if (ttl != null && !operation.takesTtl()) {
			throw new IllegalArgumentException("ttl applies to SET only");
		}
		if (senders.clients() > count) {
			throw new IllegalArgumentException("clients must not exceed count");
		}
		if (batchSize > workload.batchSizeLimit()) {
			workload = workload.withBatchSizeAsked(batchSize);
			batchSize = workload.batchSizeLimit();
		}
	}

	/** {@code sharing}: pipelines always take a dedicated connection whatever it says. */
	public record Senders(Connector connector, Sharing sharing, int clients) {

		/** Spring Boot's default: Lettuce, one shared connection, one client. */
		public static final Senders DEFAULT = new Senders(Connector.LETTUCE, Sharing.SHARED, 1);

		public Senders {
			if (clients < 1) {
				throw new IllegalArgumentException("clients must be positive");
			}
		}

		Senders withClients(int number) {
			return new Senders(this.connector, this.sharing, number);
		}

	}

	public RunSpec with(Variant variant) {
		Connector connector = variant.connector();
		// Jedis connections serve one thread at a time.
		Sharing sharing = (connector == Connector.JEDIS) ? Sharing.POOLED : this.senders.sharing();
		return new RunSpec(this.operation, variant.mode(), variant.policyOr(this.flushPolicy), this.count,
				this.batchSize, this.sample, this.ttl, this.addedRtt, this.repeat, this.workload,
				new Senders(connector, sharing, this.senders.clients()), variant.writes());
	}

	public RunSpec withBatchSize(int size) {
		return new RunSpec(this.operation, this.mode, this.flushPolicy, this.count, size, this.sample, this.ttl,
				this.addedRtt, this.repeat, this.workload.withBatchSizeAsked(null), this.senders, this.writes);
	}

	/** A comparison's steady passes ({@link SteadyCompare}). */
	RunSpec withPasses(int passes, long items, Workload passWorkload) {
		return new RunSpec(this.operation, this.mode, this.flushPolicy, items, this.batchSize, this.sample, this.ttl,
				this.addedRtt, passes, passWorkload, this.senders, this.writes);
	}

	/** An untimed pass of the same work over {@code items}: one request, no sample. */
	RunSpec withCount(long items) {
		return new RunSpec(this.operation, this.mode, this.flushPolicy, items, (int) Math.min(this.batchSize, items), 0,
				this.ttl, this.addedRtt, 1, this.workload.single(),
				this.senders.withClients((int) Math.min(clients(), items)), this.writes);
	}

	/** A fleet member's share: items {@code from..to-1}, split among its clients. */
	public RunSpec share(long from, long to) {
		return new RunSpec(this.operation, this.mode, this.flushPolicy, to - from, this.batchSize, this.sample,
				this.ttl, this.addedRtt, this.repeat, this.workload.withFirst(from),
				this.senders.withClients((int) Math.min(clients(), to - from)), this.writes);
	}

	int clients() {
		return this.senders.clients();
	}

	/** Of one request: each client batches its own share of the items. */
	long batches() {
		return IntStream.range(0, clients()).mapToLong((client) -> {
			long items = ClientThreads.to(this.count, clients(), client)
					- ClientThreads.from(this.count, clients(), client);
			return (items + this.batchSize - 1) / this.batchSize;
		}).sum();
	}

	long batchesPerPass() {
		return batches() * this.workload.requests();
	}

	long itemsPerPass() {
		return this.count * this.workload.requests();
	}

	int valueSize() {
		return this.workload.valueSize();
	}

}
