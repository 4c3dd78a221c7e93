package dev.pipelininglab.redis;

import dev.pipelininglab.ProblemException;
import dev.pipelininglab.ProblemType;

/**
 * The preflight refused a run before it wrote anything
 * ({@link ProblemType#RUN_DOES_NOT_FIT} or {@link ProblemType#EVICTION_RISK}), with what
 * a client can act on: the master it does not fit on, its memory, and the count that
 * fits.
 */
public class RunRefusedException extends ProblemException {

	RunRefusedException(ProblemType type, Preflight.NodeMemory node, long estimateBytes, long fittingCount,
			String detail) {
		super(type, detail, "node", node.address(), "estimateBytes", estimateBytes, "freeBytes", node.free(),
				"usedMemoryBytes", node.used(), "limitBytes", node.limit(), "limit", node.limitName(), "marginBytes",
				node.margin(), "maxmemoryPolicy", node.policy(), "fittingCount", fittingCount);
	}

}
