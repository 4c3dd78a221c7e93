package dev.pipelininglab.run;

import dev.pipelininglab.redis.MemoryShape;

/** The memory a run's items take, for the safety preflight. */
record Footprint(MemoryShape shape, long items) {
}
