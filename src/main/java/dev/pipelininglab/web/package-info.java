/**
 * The HTTP side: controllers, request checks, problem details, event streams, the API
 * description and the page.
 */
@NullMarked
package dev.pipelininglab.web;

import org.jspecify.annotations.NullMarked;
