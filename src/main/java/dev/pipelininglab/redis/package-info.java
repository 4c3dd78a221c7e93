/**
 * Connections to Redis: routes per flush policy and connector, topology, key naming,
 * diagnosis of failures.
 */
@NullMarked
package dev.pipelininglab.redis;

import org.jspecify.annotations.NullMarked;
