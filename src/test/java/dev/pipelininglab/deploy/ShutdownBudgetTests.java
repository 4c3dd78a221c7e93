package dev.pipelininglab.deploy;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.pipelininglab.job.JobProperties;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.autoconfigure.context.LifecycleProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.convert.DurationStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app's shutdown is one budget, and whoever stops it waits for all of it: Compose's
 * {@code stop_grace_period} on every app service and the pod's
 * {@code terminationGracePeriodSeconds} (after its preStop pause) are at least the budget
 * plus a margin, before the SIGKILL that would leave a run's record RUNNING and its keys
 * without an expiry. The budget is read where the app reads it: application.yml, the
 * properties records' defaults and what Compose or the ConfigMaps set in the environment
 * (docs/deploy.md, "One shutdown budget").
 */
class ShutdownBudgetTests {

	/** What a JVM's own exit takes beyond the waits: Tomcat, the connections, logging. */
	private static final Duration MARGIN = Duration.ofSeconds(5);

	/** Where Compose or a ConfigMap could change the budget. */
	private static final Set<String> BUDGET_VARIABLES = Set.of("LAB_JOBS_SHUTDOWNWAIT",
			"SPRING_LIFECYCLE_TIMEOUTPERSHUTDOWNPHASE", "SPRING_DATA_REDIS_TIMEOUT");

	private static final Pattern COMPOSE_DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m(?!s))?(?:(\\d+)s)?");

	@Test
	void theBudgetIsTheRunsWaitTheWebServersGracefulPhaseAndOneCommand() throws IOException {
		Budget budget = Budget.of(Map.of());
		assertThat(budget.runs()).as("lab.jobs.shutdown-wait, runs and their keys' expiry")
			.isEqualTo(Duration.ofSeconds(20));
		assertThat(budget.webPhase()).as("spring.lifecycle.timeout-per-shutdown-phase, not Boot's 30 s")
			.isEqualTo(Duration.ofSeconds(5));
		assertThat(budget.command()).as("spring.data.redis.timeout").isEqualTo(Duration.ofSeconds(5));
		assertThat(budget.total()).isEqualTo(Duration.ofSeconds(30));
		assertThat(setting(applicationYml(), "server.shutdown")).isEqualTo("graceful");
	}

	@Test
	void composeWaitsForTheWholeBudgetBeforeItKillsAnApp() throws IOException {
		Map<String, Map<String, Object>> apps = composeApps();
		assertThat(apps).containsKeys("app", "app-sentinel", "app-cluster", "app-rtt", "app-fleet");
		for (Map.Entry<String, Map<String, Object>> app : apps.entrySet()) {
			Budget budget = Budget.of(environment(app.getValue().get("environment")));
			Object grace = app.getValue().get("stop_grace_period");
			assertThat(grace).as("%s's stop_grace_period (Docker's default is 10 s)", app.getKey()).isNotNull();
			assertThat(composeDuration(String.valueOf(grace))).as("%s's stop_grace_period", app.getKey())
				.isGreaterThanOrEqualTo(budget.total().plus(MARGIN));
		}
	}

	@Test
	void thePodWaitsForItsPreStopPauseAndTheWholeBudget() throws IOException {
		List<Map<String, Object>> documents = kubernetesDocuments();
		Map<String, String> environment = new HashMap<>();
		List<Map<String, Object>> pods = new ArrayList<>();
		for (Map<String, Object> document : documents) {
			if ("ConfigMap".equals(document.get("kind")) && document.get("data") != null) {
				// The longest any overlay sets: every pod must wait for it.
				environment(document.get("data")).forEach((name, value) -> {
					if (BUDGET_VARIABLES.contains(name)) {
						environment.merge(name, value, (a, b) -> (seconds(a).compareTo(seconds(b)) >= 0) ? a : b);
					}
				});
			}
			if ("Deployment".equals(document.get("kind"))) {
				pods.add(map(map(map(document, "spec"), "template"), "spec"));
			}
		}
		assertThat(environment).containsKey("LAB_JOBS_SHUTDOWNWAIT");
		Budget budget = Budget.of(environment);
		Map<String, Object> base = pods.stream()
			.filter((pod) -> pod.containsKey("terminationGracePeriodSeconds"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no Deployment sets terminationGracePeriodSeconds"));
		Duration pause = preStopPause(base);
		assertThat(pause).isPositive();
		for (Map<String, Object> pod : pods) {
			Object grace = pod.get("terminationGracePeriodSeconds");
			if (grace != null) {
				assertThat(Duration.ofSeconds(((Number) grace).longValue())).as("terminationGracePeriodSeconds")
					.isGreaterThanOrEqualTo(pause.plus(budget.total()).plus(MARGIN));
			}
		}
	}

	/**
	 * On SIGTERM: runs stop between batches and their keys get an expiry within one
	 * deadline ({@code lab.jobs.shutdown-wait}); the web server's graceful phase waits
	 * for answers still being written; a command already sent may take its whole timeout.
	 */
	private record Budget(Duration runs, Duration webPhase, Duration command) {

		static Budget of(Map<String, String> environment) throws IOException {
			Map<String, Object> yml = applicationYml();
			Duration runs = duration(environment.get("LAB_JOBS_SHUTDOWNWAIT"), setting(yml, "lab.jobs.shutdown-wait"),
					jobsDefault("shutdownWait"));
			Duration webPhase = duration(environment.get("SPRING_LIFECYCLE_TIMEOUTPERSHUTDOWNPHASE"),
					setting(yml, "spring.lifecycle.timeout-per-shutdown-phase"),
					new LifecycleProperties().getTimeoutPerShutdownPhase());
			Duration command = duration(environment.get("SPRING_DATA_REDIS_TIMEOUT"),
					setting(yml, "spring.data.redis.timeout"), null);
			return new Budget(runs, webPhase, command);
		}

		Duration total() {
			return this.runs.plus(this.webPhase).plus(this.command);
		}

		private static Duration duration(@Nullable String environment, @Nullable String yml,
				@Nullable Duration fallback) {
			String value = (environment != null) ? environment : yml;
			return (value != null) ? DurationStyle.detectAndParse(value)
					: Objects.requireNonNull(fallback, "no value and no default");
		}

		/** {@code @DefaultValue} sits on the canonical constructor's parameters. */
		private static Duration jobsDefault(String component) {
			RecordComponent[] components = JobProperties.class.getRecordComponents();
			Class<?>[] types = Stream.of(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
			try {
				Parameter[] parameters = JobProperties.class.getDeclaredConstructor(types).getParameters();
				for (int i = 0; i < components.length; i++) {
					if (components[i].getName().equals(component)) {
						return DurationStyle.detectAndParse(parameters[i].getAnnotation(DefaultValue.class).value()[0]);
					}
				}
			}
			catch (NoSuchMethodException ex) {
				throw new IllegalStateException(ex);
			}
			throw new IllegalArgumentException("JobProperties has no " + component);
		}

	}

	private static Duration preStopPause(Map<String, Object> pod) {
		List<?> containers = (List<?>) pod.get("containers");
		Map<String, Object> container = cast(containers.get(0));
		List<?> command = (List<?>) map(map(map(container, "lifecycle"), "preStop"), "exec").get("command");
		assertThat(command).hasSize(2).first().isEqualTo("sleep");
		return Duration.ofSeconds(Long.parseLong(String.valueOf(command.get(1))));
	}

	private static Map<String, Map<String, Object>> composeApps() throws IOException {
		Map<String, Object> services = map(load(Path.of("docker-compose.yml")).get(0), "services");
		Map<String, Map<String, Object>> apps = new HashMap<>();
		services.forEach((name, service) -> {
			Map<String, Object> definition = cast(service);
			if (String.valueOf(definition.get("image")).contains("APP_IMAGE")) {
				apps.put(name, definition);
			}
		});
		return apps;
	}

	private static Duration composeDuration(String value) {
		Matcher matcher = COMPOSE_DURATION.matcher(value);
		assertThat(matcher.matches()).as("a Compose duration such as 40s or 1m30s: %s", value).isTrue();
		return Duration.ofHours(number(matcher.group(1)))
			.plusMinutes(number(matcher.group(2)))
			.plusSeconds(number(matcher.group(3)));
	}

	private static long number(@Nullable String digits) {
		return (digits != null) ? Long.parseLong(digits) : 0;
	}

	private static Duration seconds(String value) {
		return DurationStyle.detectAndParse(value);
	}

	private static Map<String, String> environment(@Nullable Object variables) {
		Map<String, String> environment = new HashMap<>();
		if (variables != null) {
			cast(variables).forEach((name, value) -> environment.put(name, String.valueOf(value)));
		}
		return environment;
	}

	private static List<Map<String, Object>> kubernetesDocuments() throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Stream<Path> files = Files.walk(Path.of("deploy/kubernetes"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".yaml")).sorted().toList()) {
				documents.addAll(load(file));
			}
		}
		return documents;
	}

	private static Map<String, Object> applicationYml() throws IOException {
		return load(Path.of("src/main/resources/application.yml")).get(0);
	}

	/** A dotted key, as nested maps. */
	private static @Nullable String setting(Map<String, Object> yml, String key) {
		Object node = yml;
		for (String part : key.split("\\.")) {
			if (!(node instanceof Map<?, ?> map)) {
				return null;
			}
			node = map.get(part);
		}
		return (node != null) ? String.valueOf(node) : null;
	}

	private static List<Map<String, Object>> load(Path file) throws IOException {
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file)) {
			for (Object document : new Yaml(options).loadAll(reader)) {
				if (document != null) {
					documents.add(cast(document));
				}
			}
		}
		return documents;
	}

	private static Map<String, Object> map(Map<String, Object> parent, String key) {
		return cast(Objects.requireNonNull(parent.get(key), key));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> cast(Object value) {
		return (Map<String, Object>) value;
	}

}
