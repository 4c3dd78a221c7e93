package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.resource.ClientResources;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/** How the lab's Redis client differs from Spring Boot's, read back from the client. */
@Component
public class ClientSettings {

	private final List<Tuning> tunings;

	private final Map<String, String> inEffect;

	ClientSettings(LettuceConnectionFactory factory, PipelineProperties pipeline, RouteCache routes) {
		this.tunings = read(factory, pipeline, routes);
		this.inEffect = this.tunings.stream()
			.filter((tuning) -> tuning.differs() && tuning.scope() == Scope.CLIENT)
			.collect(Collectors.toUnmodifiableMap(Tuning::name, Tuning::value));
	}

	public List<Tuning> all() {
		return this.tunings;
	}

	public Map<String, String> inEffect() {
		return this.inEffect;
	}

	private static List<Tuning> read(LettuceConnectionFactory factory, PipelineProperties pipeline, RouteCache routes) {
		LettuceClientConfiguration configuration = factory.getClientConfiguration();
		ClientOptions options = configuration.getClientOptions().orElseGet(ClientOptions::create);
		ClientResources resources = configuration.getClientResources().orElse(null);
		return List.of(
				new Tuning("flushPolicy", Scope.RUN, pipeline.flushPolicy().toString(),
						FlushPolicy.FLUSH_EACH_COMMAND.toString(), "lab.pipeline.flush-policy",
						"LettuceConnectionFactory.setPipeliningFlushPolicy(PipeliningFlushPolicy.buffered(500)) in a"
								+ " BeanPostProcessor; Spring Boot has no property for it"),
				new Tuning("writes", Scope.RUN, routes.defaultWrites().label(), Writes.PER_COMMAND.label(),
						"lab.pipeline.writes",
						"per-flush needs the lab's BatchWritingEndpoint (redis/); per-command is Lettuce as it ships"),
				new Tuning("commandTimeouts", Scope.CLIENT,
						options.getTimeoutOptions().isTimeoutCommands() ? "on" : "off", "on",
						"LettuceClientOptionsBuilderCustomizer",
						"options.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())"),
				new Tuning("commandStack", Scope.CLIENT,
						options.isUseHashIndexedQueue() ? "hash-indexed" : "plain queue", "hash-indexed",
						"LettuceClientOptionsBuilderCustomizer", "options.useHashIndexQueue(false)"),
				new Tuning("disconnectedBehavior", Scope.CLIENT, options.getDisconnectedBehavior().name(),
						ClientOptions.DisconnectedBehavior.DEFAULT.name(), "LettuceClientOptionsBuilderCustomizer",
						"options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)"),
				new Tuning("connectTimeout", Scope.CLIENT, options.getSocketOptions().getConnectTimeout().toString(),
						Duration.ofSeconds(10).toString(), "spring.data.redis.connect-timeout",
						"spring.data.redis.connect-timeout=2s"),
				new Tuning("commandTimeout", Scope.CLIENT, configuration.getCommandTimeout().toString(),
						Duration.ofSeconds(60).toString(), "spring.data.redis.timeout", "spring.data.redis.timeout=5s"),
				new Tuning("lettuceObservation", Scope.CLIENT,
						(resources != null && resources.tracing().isEnabled()) ? "on" : "off", "on",
						"spring.autoconfigure.exclude",
						"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.observation"
								+ ".LettuceObservationAutoConfiguration"),
				new Tuning("pool", Scope.CLIENT, pool(configuration), "none (no commons-pool2)",
						"spring.data.redis.lettuce.pool.*",
						"add org.apache.commons:commons-pool2, then spring.data.redis.lettuce.pool.max-active=16,"
								+ " max-idle=16, max-wait=2s"));
	}

	private static String pool(LettuceClientConfiguration configuration) {
		if (!(configuration instanceof LettucePoolingClientConfiguration pooling)) {
			return "none";
		}
		var pool = pooling.getPoolConfig();
		return "max-active=" + pool.getMaxTotal() + ", max-idle=" + pool.getMaxIdle() + ", max-wait="
				+ pool.getMaxWaitDuration();
	}

	public enum Scope {

		CLIENT, RUN

	}

	public record Tuning(String name, Scope scope, String value, String springBootDefault, String where, String how) {

		public boolean differs() {
			return !this.value.equals(this.springBootDefault);
		}

	}

}
