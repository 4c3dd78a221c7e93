package dev.pipelininglab.run;

import java.util.List;

/**
 * The same work done by every mode that supports the operation, on the same keys and values, loop first; each
 * result carries its speedup against the loop.
 */
public record Comparison(Operation operation, long count, String topology, List<RunResult> results) {
}
