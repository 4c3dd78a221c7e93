package dev.pipelininglab.redis;

import org.jspecify.annotations.Nullable;

/**
 * The preflight refused a run before it wrote anything: it would not fit in a server's
 * memory, or it could make the server evict keys that are not the lab's. The message is
 * the detail a person reads; the fields are what a client can act on.
 */
public class RunRefusedException extends RuntimeException {

	/** Why the run was refused. */
	public enum Reason {

		/** More than the server has free, and nothing could make room. */
		DOES_NOT_FIT,

		/**
		 * Past {@code maxmemory} under a policy that evicts keys other than the lab's.
		 */
		EVICTION_RISK

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

	/** The server ({@code host:port}) the run would not fit on. */
	public String node() {
		return this.node.address();
	}

	/** What the run would add to that server's {@code used_memory}, estimated. */
	public long estimateBytes() {
		return this.estimateBytes;
	}

	/** What the run may use there: the limit less {@code used_memory} and the margin. */
	public long freeBytes() {
		return Math.max(0, this.node.room());
	}

	/** {@code maxmemory}, or {@code total_system_memory} without it. */
	public long limitBytes() {
		return this.node.limit();
	}

	/** Which of the two {@link #limitBytes()} is. */
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

	/** About the largest {@code count} that would fit, other things equal (0: none). */
	public long fittingCount() {
		return this.fittingCount;
	}

}
