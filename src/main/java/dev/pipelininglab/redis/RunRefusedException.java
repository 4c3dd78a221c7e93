package dev.pipelininglab.redis;

import dev.pipelininglab.ProblemType;

/** The preflight refused a run before it wrote anything. */
public class RunRefusedException extends RuntimeException {

	private final Refusal refusal;

	RunRefusedException(ProblemType type, Preflight.NodeMemory node, long estimateBytes, long fittingCount,
			String detail) {
		super(detail);
		this.refusal = new Refusal(type, node, estimateBytes, fittingCount);
	}

	public Refusal refusal() {
		return this.refusal;
	}

	/**
	 * What the preflight found.
	 *
	 * @param type {@link ProblemType#RUN_DOES_NOT_FIT} or
	 * {@link ProblemType#EVICTION_RISK}
	 * @param node the master the run does not fit on
	 */
	public record Refusal(ProblemType type, Preflight.NodeMemory node, long estimateBytes, long fittingCount) {
	}

}
