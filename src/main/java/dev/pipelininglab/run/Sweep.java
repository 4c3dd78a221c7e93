package dev.pipelininglab.run;

import java.util.List;

/**
 * Pipelined throughput against pipeline length: one result per batch size, same keys and
 * values for each.
 */
public record Sweep(Operation operation, long count, String topology, List<RunResult> results) {
}
