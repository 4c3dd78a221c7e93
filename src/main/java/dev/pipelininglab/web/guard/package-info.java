/**
 * Request guards that act before a controller: the cross-site and listener checks, the
 * body limit, the {@code Accept} check, strict numbers and the actuator's parameters.
 */
@NullMarked
package dev.pipelininglab.web.guard;

import org.jspecify.annotations.NullMarked;
