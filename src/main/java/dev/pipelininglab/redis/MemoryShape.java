package dev.pipelininglab.redis;

/**
 * How a run's items are stored in Redis, for the memory preflight: a key of its own per
 * item (SET), or an element of one key (HSET's fields, SADD's and ZADD's members, the
 * lists' elements). Each costs a different amount beside its bytes.
 */
public enum MemoryShape {

	STRING, HASH, SET, ZSET, LIST

}
