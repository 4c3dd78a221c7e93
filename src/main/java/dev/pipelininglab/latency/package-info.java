/**
 * The relay that adds a round trip between the app and Redis, for the RTT lab.
 */
@NullMarked
package dev.pipelininglab.latency;

import org.jspecify.annotations.NullMarked;
