package dev.pipelininglab.job;

import java.util.concurrent.atomic.AtomicReference;

import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;

/**
 * Describes what this instance measures on (Redis version, topology, JVM, cores, flush
 * policy, concurrency) for each job's record.
 */
record InstanceEnvironment(RunStore store, Topology topology, PipelineProperties pipeline, int maxConcurrent,
		AtomicReference<@Nullable String> lastVersion) {

	InstanceEnvironment(RunStore store, Topology topology, PipelineProperties pipeline, int maxConcurrent) {
		this(store, topology, pipeline, maxConcurrent, new AtomicReference<>());
	}

	/**
	 * What this instance measures on. A job reads the version at each submit, as Redis
	 * may be upgraded; a GET run takes the last one read, so a stuck Redis costs its
	 * caller one command timeout, not two.
	 */
	RunRecord.Environment describe(boolean fresh) {
		String version = this.lastVersion.get();
		if (fresh || version == null) {
			try {
				version = this.store.redisVersion();
				this.lastVersion.set(version);
			}
			catch (RuntimeException ex) {
				version = null;
			}
		}
		Runtime.Version jvm = Runtime.version();
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + jvm, Runtime.getRuntime().availableProcessors(),
				this.pipeline.flushPolicy().toString(), this.pipeline.writes().label(), this.maxConcurrent);
	}

}
