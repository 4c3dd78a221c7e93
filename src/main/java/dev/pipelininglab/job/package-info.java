/**
 * Every run, GET or job, as the one run executor
 * ({@link dev.pipelininglab.job.RunExecutor}) takes it: admitted to a run slot, measured
 * (alone or as a fleet's leader or member), and recorded in Redis before its first key,
 * while it runs and at its end; the sweep of runs whose instance died, and the signed
 * fleet channel.
 */
@NullMarked
package dev.pipelininglab.job;

import org.jspecify.annotations.NullMarked;
