package dev.pipelininglab.redis;

import org.jspecify.annotations.Nullable;

/** The preflight refused a run before it wrote anything. */
public class RunRefusedException extends RuntimeException {

	public enum Reason {

		DOES_NOT_FIT, EVICTION_RISK

	}

	private final Reason reason;

	private final Preflight.NodeMemory node;

	private final long estimateBytes;

	private final long fittingCount;

	RunRefusedException(Reason reason, Preflight.NodeMemory node, long estimateBytes, long fittingCount,
			String detail) {
		super(detail);
		this.reason = reason;
		this.node = node;
		this.estimateBytes = estimateBytes;
		this.fittingCount = fittingCount;
	}

	public Reason reason() {
		return this.reason;
	}

	public String node() {
		return this.node.address();
	}

	public long estimateBytes() {
		return this.estimateBytes;
	}

	public long freeBytes() {
		return Math.max(0, this.node.room());
	}

	public long limitBytes() {
		return this.node.limit();
	}

	public String limitName() {
		return this.node.limitName();
	}

	public long usedMemoryBytes() {
		return this.node.used();
	}

	public long marginBytes() {
		return this.node.margin();
	}

	public @Nullable String maxmemoryPolicy() {
		return this.node.policy();
	}

	public long fittingCount() {
		return this.fittingCount;
	}

}
