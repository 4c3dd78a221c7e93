/**
 * The lab's shared vocabulary: the application, the problem catalogue, plain numbers,
 * loopback hosts and request limits; it uses no feature package.
 */
@NullMarked
package dev.pipelininglab;

import org.jspecify.annotations.NullMarked;
