/**
 * Output formats besides JSON: a run, a comparison or a sweep as a plain-text, CSV or
 * Markdown table, with the columns a caller may choose, or as a browser's page; and two
 * runs side by side.
 */
@NullMarked
package dev.pipelininglab.web.text;

import org.jspecify.annotations.NullMarked;
