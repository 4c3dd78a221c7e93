package dev.pipelininglab.job;

/**
 * Why a job failed, in the problem type a failed request carries; the web layer, which
 * owns those types, provides it.
 */
public interface RunProblems {

	RunRecord.Problem describe(RuntimeException failure);

}
