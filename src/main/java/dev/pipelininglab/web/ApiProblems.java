package dev.pipelininglab.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.pipelininglab.ProblemType;

/**
 * The problems a handler answers besides those its catalogue parameters tell (a 400, a
 * 404 for an {@code id}) and a 503 when Redis is down: the API description gives each an
 * example. On the handler, so a renamed path keeps them.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface ApiProblems {

	ProblemType[] value() default {};

	/** False for a handler that reads no Redis: no 503. */
	boolean redis() default true;

}
