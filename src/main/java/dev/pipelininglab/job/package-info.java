/**
 * Runs started with POST /runs: queued and measured in the background, their records and
 * progress kept in Redis.
 */
@NullMarked
package dev.pipelininglab.job;

import org.jspecify.annotations.NullMarked;
