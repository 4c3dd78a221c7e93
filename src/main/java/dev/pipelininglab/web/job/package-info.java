/**
 * Runs as jobs: {@code POST /runs} and its body, the history, cancelling a run and
 * following it as Server-Sent Events.
 */
@NullMarked
package dev.pipelininglab.web.job;

import org.jspecify.annotations.NullMarked;
