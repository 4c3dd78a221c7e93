package dev.pipelininglab.run;

import java.util.List;

/**
 * The same work done by every requested variant, on the same keys and values, each from
 * the same starting state; each result carries its speedup against the loop (or against
 * the first variant when no loop ran).
 *
 * @param skipped variants that cannot run this operation on this topology, and why
 */
public record Comparison(Operation operation, long count, String topology, List<RunResult> results,
		List<Skipped> skipped) {

	public record Skipped(String variant, String reason) {
	}

}
