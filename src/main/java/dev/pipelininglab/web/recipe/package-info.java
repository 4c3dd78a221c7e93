/**
 * Recipes: {@code GET /recipes/{variant}}, each way of sending as a small Java program
 * that repeats what the lab measured, filled in with the run's batch size and flush
 * policy.
 */
@NullMarked
package dev.pipelininglab.web.recipe;

import org.jspecify.annotations.NullMarked;
