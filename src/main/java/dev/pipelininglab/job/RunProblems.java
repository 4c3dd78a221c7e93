package dev.pipelininglab.job;

/**
 * Describes why a job failed in the terms a GET endpoint would have answered with, so a
 * failed job's record and a failed request carry the same problem type. The web layer,
 * which owns those types, provides it.
 */
public interface RunProblems {

	RunRecord.Problem describe(RuntimeException failure);

}
