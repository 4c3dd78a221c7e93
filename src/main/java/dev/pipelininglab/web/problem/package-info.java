/**
 * Problem details: every error the lab answers, as {@code application/problem+json} with
 * a stable {@code type} URI, whether it comes from a controller, a filter, Spring MVC's
 * own error handling or Tomcat itself.
 */
@NullMarked
package dev.pipelininglab.web.problem;

import org.jspecify.annotations.NullMarked;
