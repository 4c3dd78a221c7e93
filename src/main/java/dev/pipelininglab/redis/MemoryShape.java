package dev.pipelininglab.redis;

/** How a run's items are stored, for the memory preflight. */
public enum MemoryShape {

	STRING, HASH, SET, ZSET, LIST

}
