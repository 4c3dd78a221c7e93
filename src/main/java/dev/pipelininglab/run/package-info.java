/**
 * Measuring: one run specification, one measuring path (warm-up, timed passes,
 * verification, the result), the runners that send a batch each in their own way, and the
 * operations that say what each command sends and how its replies count.
 */
@NullMarked
package dev.pipelininglab.run;

import org.jspecify.annotations.NullMarked;
