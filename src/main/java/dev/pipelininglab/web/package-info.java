/**
 * The run API: the run endpoints and their parameters (the catalogue every other part
 * reads), admission, stopping a GET run, the API description and the index. Problem
 * details, request guards, output formats, recipes and jobs are sub-packages of their
 * own.
 */
@NullMarked
package dev.pipelininglab.web;

import org.jspecify.annotations.NullMarked;
