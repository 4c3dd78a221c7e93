package dev.pipelininglab.job;

import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;

/**
 * Describes what this instance measures on (Redis version, topology, JVM, cores, flush
 * policy, concurrency) for each job's record.
 */
record InstanceEnvironment(RunStore store, Topology topology, PipelineProperties pipeline, int maxConcurrent) {

	/** What this instance measures on; read at each submit, as Redis may be upgraded. */
	RunRecord.Environment describe() {
		String version;
		try {
			version = this.store.redisVersion();
		}
		catch (RuntimeException ex) {
			version = null;
		}
		Runtime.Version jvm = Runtime.version();
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + jvm, Runtime.getRuntime().availableProcessors(),
				this.pipeline.flushPolicy().toString(), this.pipeline.writes().label(), this.maxConcurrent);
	}

}
