package dev.pipelininglab.run;

import dev.pipelininglab.redis.MemoryShape;

/**
 * The memory a run's items take, for the safety preflight: {@code items} items stored as
 * {@code shape}; {@link MemoryShape#STRING} means a key of its own per item.
 */
record Footprint(MemoryShape shape, long items) {
}
