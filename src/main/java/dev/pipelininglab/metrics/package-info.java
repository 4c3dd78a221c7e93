/**
 * Run metrics: timings of every run, and Lettuce's optional per-command latency.
 */
@NullMarked
package dev.pipelininglab.metrics;

import org.jspecify.annotations.NullMarked;
