/**
 * The redis-server the app starts itself when no Redis answers at the configured loopback
 * address.
 */
@NullMarked
package dev.pipelininglab.localredis;

import org.jspecify.annotations.NullMarked;
