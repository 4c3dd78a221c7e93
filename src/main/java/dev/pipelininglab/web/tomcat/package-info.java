/**
 * The lab's one hook into Tomcat's internals: whether a GET run's caller is still
 * connected, which the Servlet API cannot tell while a request neither reads nor writes.
 * Only {@code web} uses it, and {@code TomcatHooksContractTests} fails, naming the field,
 * when a Tomcat upgrade moves what it reads.
 */
@NullMarked
package dev.pipelininglab.web.tomcat;

import org.jspecify.annotations.NullMarked;
