/**
 * The lab's extensions of Lettuce's internals (its endpoint, node writers and client
 * factory methods) that write each pipeline flush as one message, and the private fields
 * of Lettuce and Spring Data Redis it reads ({@code PrivateState}); only the redis
 * package uses them, and {@code LettuceHooksContractTests} checks them against the
 * Lettuce version in use.
 */
@NullMarked
package dev.pipelininglab.redis.lettuce;

import org.jspecify.annotations.NullMarked;
