package dev.pipelininglab.redis;

import dev.pipelininglab.ProblemType;

/** The preflight refused a run before it wrote anything. */
public class RunRefusedException extends RuntimeException {

	private final ProblemType type;

	private final Preflight.NodeMemory node;

	private final long estimateBytes;

	private final long fittingCount;

	RunRefusedException(ProblemType type, Preflight.NodeMemory node, long estimateBytes, long fittingCount,
			String detail) {
		super(detail);
		this.type = type;
		this.node = node;
		this.estimateBytes = estimateBytes;
		this.fittingCount = fittingCount;
	}

	/** {@link ProblemType#RUN_DOES_NOT_FIT} or {@link ProblemType#EVICTION_RISK}. */
	public ProblemType type() {
		return this.type;
	}

	/** The master the run does not fit on. */
	public Preflight.NodeMemory node() {
		return this.node;
	}

	public long estimateBytes() {
		return this.estimateBytes;
	}

	public long fittingCount() {
		return this.fittingCount;
	}

}
