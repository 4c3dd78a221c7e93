/**
 * The lab's settings, {@code lab.*}, as one validated tree whose parts the features
 * receive as beans.
 */
@NullMarked
package dev.pipelininglab.config;

import org.jspecify.annotations.NullMarked;
