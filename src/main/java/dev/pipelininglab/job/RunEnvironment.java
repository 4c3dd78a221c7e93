package dev.pipelininglab.job;

import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import dev.pipelininglab.redis.PipelineProperties;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.run.AdmissionProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * What this instance measures on, as each record tells it: the Redis version and
 * topology, the runtime, the client's settings, and the one limit on runs.
 */
@Component
class RunEnvironment {

	private final StringRedisTemplate redis;

	private final Topology topology;

	private final PipelineProperties pipeline;

	private final int maxConcurrent;

	private final AtomicReference<@Nullable String> lastVersion = new AtomicReference<>();

	RunEnvironment(StringRedisTemplate redis, Topology topology, PipelineProperties pipeline,
			AdmissionProperties admission) {
		this.redis = redis;
		this.topology = topology;
		this.pipeline = pipeline;
		this.maxConcurrent = admission.maxConcurrent();
	}

	/**
	 * For each record. A job reads the version at each submit, as Redis may be upgraded;
	 * a GET run takes the last one read, so a stuck Redis costs its caller one command
	 * timeout, not two.
	 */
	RunRecord.Environment of(boolean fresh) {
		String version = this.lastVersion.get();
		if (fresh || version == null) {
			try {
				version = redisVersion();
				this.lastVersion.set(version);
			}
			catch (RuntimeException ex) {
				version = null;
			}
		}
		return new RunRecord.Environment(version, this.topology.kind() + " " + String.join(", ", this.topology.nodes()),
				System.getProperty("java.vm.name") + " " + Runtime.version(),
				Runtime.getRuntime().availableProcessors(), this.pipeline.flushPolicy().toString(),
				this.pipeline.writes().label(), this.maxConcurrent);
	}

	/** A cluster answers per node, under keys ending the same way. */
	private @Nullable String redisVersion() {
		Properties info = this.redis
			.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands().info("server"));
		if (info == null) {
			return null;
		}
		return info.stringPropertyNames()
			.stream()
			.filter((key) -> key.endsWith("redis_version"))
			.map(info::getProperty)
			.distinct()
			.sorted()
			.reduce((a, b) -> a + ", " + b)
			.orElse(null);
	}

}
