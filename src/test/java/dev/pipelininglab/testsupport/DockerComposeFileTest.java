package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docker-compose.yml: valid for both Compose implementations people have (the
 * {@code docker compose} plugin and Debian's {@code docker-compose} 1.29, which rejects a
 * top-level {@code name:}), one topology per profile, every host port overridable.
 * <p>
 * The validation runs each tool that is installed and skips, saying so, for one that is
 * not, unless {@code LAB_REQUIRE_COMPOSE=true} (set by {@code .ci/run} where it installed
 * docker-compose).
 */
class DockerComposeFileTest {

	private static final Path FILE = Path.of("docker-compose.yml");

	private static final List<String> PROFILES = List.of("standalone", "sentinel", "cluster", "rtt", "fleet",
			"observability");

	/**
	 * Each topology's app service, from the image, and the Spring Boot properties wiring
	 * it.
	 */
	private static final Map<String, String> APPS = Map.of("standalone", "app", "sentinel", "app-sentinel", "cluster",
			"app-cluster", "rtt", "app-rtt");

	@ParameterizedTest(name = "{0} config")
	@ValueSource(strings = { "docker-compose", "docker compose" })
	void validatesForEveryProfile(String tool) throws Exception {
		List<String> command = List.of(tool.split(" "));
		boolean present = runs(concat(command, "version"));
		if (!present && "true".equalsIgnoreCase(System.getenv("LAB_REQUIRE_COMPOSE"))
				&& tool.equals("docker-compose")) {
			fail("LAB_REQUIRE_COMPOSE is set but " + tool + " is missing");
		}
		assumeTrue(present, "'" + tool + "' is not installed here");
		for (String profile : PROFILES) {
			Path output = Files.createTempFile("compose-config", ".log");
			Process process = new ProcessBuilder(
					concat(command, "-f", FILE.toString(), "--profile", profile, "config", "--quiet"))
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).as("%s --profile %s config: %s", tool, profile, Files.readString(output))
				.isZero();
			Files.delete(output);
		}
	}

	@Test
	void eachProfileStartsOnlyItsOwnTopology() throws IOException {
		Map<String, Map<String, Object>> services = services();
		assertThat(services.values()).as("services without a profile start under every profile")
			.allSatisfy((service) -> assertThat(service).containsKey("profiles"));
		assertThat(servicesOf("cluster", services)).containsExactlyInAnyOrder("node-1", "node-2", "node-3", "node-4",
				"node-5", "node-6", "cluster-init", "app-cluster");
		assertThat(servicesOf("standalone", services)).containsExactlyInAnyOrder("redis", "app");
		assertThat(servicesOf("sentinel", services)).containsExactlyInAnyOrder("sentinel-master", "replica-1",
				"replica-2", "sentinel-1", "sentinel-2", "sentinel-3", "app-sentinel");
		assertThat(servicesOf("rtt", services)).containsExactlyInAnyOrder("redis", "toxiproxy", "toxiproxy-init",
				"app-rtt");
		assertThat(servicesOf("fleet", services)).containsExactlyInAnyOrder("redis", "app-fleet");
		assertThat(servicesOf("observability", services)).containsExactlyInAnyOrder("prometheus", "grafana");
	}

	/**
	 * Every topology has its app, from the image, on Spring Boot's own
	 * {@code spring.data.redis.*} properties (no Spring profile), healthy by the
	 * readiness group, answering to localhost and to the name Prometheus scrapes it by,
	 * with the page on 127.0.0.1:8080.
	 */
	@Test
	void everyTopologyHasItsAppWiredWithSpringBootProperties() throws IOException {
		Map<String, Map<String, Object>> services = services();
		Map<String, Object> scrape = loadYaml(Path.of("deploy/prometheus/prometheus.yml"));
		String targets = String.valueOf(scrape.get("scrape_configs"));
		APPS.forEach((profile, name) -> {
			Map<String, Object> app = services.get(name);
			assertThat(app).as(name).isNotNull();
			assertThat(app.get("image")).isEqualTo("${APP_IMAGE:-pipelining-lab:latest}");
			assertThat(strings(app.get("profiles"))).containsExactly(profile);
			@SuppressWarnings("unchecked")
			Map<String, String> environment = (Map<String, String>) app.get("environment");
			assertThat(environment.keySet()).as(name)
				.allSatisfy((variable) -> assertThat(variable)
					.matches("SPRING_DATA_REDIS_[A-Z_]+|LAB_SECURITY_ALLOWEDHOSTS|LAB_SECURITY_OPEN"));
			// Reached under its own name, or under the namespace owner's when it shares
			// one.
			String network = String.valueOf(app.getOrDefault("network_mode", "service:" + name));
			String reachedAs = network.substring("service:".length());
			assertThat(List.of(environment.get("LAB_SECURITY_ALLOWEDHOSTS").split(","))).as(name)
				.contains("localhost", "127.0.0.1", reachedAs);
			assertThat(targets).as("Prometheus scrapes " + name).contains(reachedAs + ":8080");
			List<String> published = strings(services.get(reachedAs).get("ports"));
			assertThat(published).as("who publishes " + name + "'s port").contains("127.0.0.1:${APP_PORT:-8080}:8080");
			assertThat(String.valueOf(app.get("healthcheck"))).contains("/actuator/health/readiness");
		});
		assertThat(services.get("app").get("environment").toString()).contains("SPRING_DATA_REDIS_HOST=redis");
		assertThat(services.get("app-sentinel").get("environment").toString())
			.contains("SPRING_DATA_REDIS_SENTINEL_MASTER=mymaster", "SPRING_DATA_REDIS_SENTINEL_NODES=127.0.0.1:");
		assertThat(services.get("app-cluster").get("environment").toString())
			.contains("SPRING_DATA_REDIS_CLUSTER_NODES=127.0.0.1:");
		assertThat(services.get("app-rtt").get("environment").toString()).contains("SPRING_DATA_REDIS_HOST=toxiproxy");
	}

	/**
	 * Grafana is provisioned from deploy/grafana: the data source and the dashboard
	 * folder.
	 */
	@Test
	void observabilityProvisionsGrafanaFromDeploy() throws IOException {
		Map<String, Object> grafana = services().get("grafana");
		assertThat(strings(grafana.get("volumes"))).contains(
				"./deploy/grafana/provisioning:/etc/grafana/provisioning:ro",
				"./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro");
		for (Object volume : (List<?>) grafana.get("volumes")) {
			assertThat(Path.of(String.valueOf(volume).split(":")[0])).isDirectory();
		}
		assertThat(Path.of("deploy/prometheus/prometheus.yml")).isRegularFile();
	}

	/**
	 * A fixed host port is overridable; the fleet's app, which scales, takes whatever
	 * loopback port Docker gives each replica.
	 */
	@Test
	void everyHostPortIsLoopbackAndOverridable() throws IOException {
		Pattern published = Pattern.compile("127\\.0\\.0\\.1:\\$\\{([A-Z0-9_]+):-(\\d+)}:.+");
		Map<String, String> defaults = new HashMap<>();
		for (Map.Entry<String, Map<String, Object>> service : services().entrySet()) {
			for (Object port : (List<?>) service.getValue().getOrDefault("ports", List.of())) {
				if (service.getKey().equals("app-fleet")) {
					assertThat(port).isEqualTo("127.0.0.1::8080");
					continue;
				}
				Matcher matcher = published.matcher(String.valueOf(port));
				assertThat(matcher.matches()).as("%s publishes %s", service.getKey(), port).isTrue();
				String previous = defaults.put(matcher.group(1), matcher.group(2));
				assertThat(previous).as(matcher.group(1)).isIn(null, matcher.group(2));
			}
		}
		assertThat(defaults).containsEntry("REDIS_MASTER_PORT", "6379")
			.containsEntry("REDIS_SENTINEL1_PORT", "26379")
			.containsEntry("REDIS_CLUSTER6_PORT", "7384");
	}

	/**
	 * {@code --profile fleet up --scale app-fleet=3}: replicas of one app service on the
	 * standalone Redis, each published on its own loopback port (a fixed host port or a
	 * container name would stop the second), open as the other apps are, every one
	 * joining fleet runs.
	 */
	@Test
	void theFleetAppScalesOnLoopbackPortsOfItsOwnAndJoinsFleetRuns() throws IOException {
		Map<String, Object> fleet = services().get("app-fleet");
		assertThat(fleet.get("image")).isEqualTo("${APP_IMAGE:-pipelining-lab:latest}");
		assertThat(strings(fleet.get("profiles"))).containsExactly("fleet");
		assertThat(strings(fleet.get("ports"))).containsExactly("127.0.0.1::8080");
		assertThat(fleet).doesNotContainKeys("container_name", "network_mode");
		assertThat(String.valueOf(fleet.get("healthcheck"))).contains("/actuator/health/readiness");
		@SuppressWarnings("unchecked")
		Map<String, String> environment = (Map<String, String>) fleet.get("environment");
		assertThat(environment).containsEntry("LAB_FLEET_JOIN", "true")
			.containsEntry("LAB_SECURITY_OPEN", "true")
			.containsEntry("SPRING_DATA_REDIS_HOST", "redis");
		assertThat(List.of(environment.get("LAB_SECURITY_ALLOWEDHOSTS").split(","))).contains("localhost", "127.0.0.1",
				"app-fleet");
	}

	@Test
	void noTopLevelNameWhichDockerCompose129Rejects() throws IOException {
		assertThat(load()).doesNotContainKey("name");
		assertThat(Files.readString(Path.of(".env"))).contains("COMPOSE_PROJECT_NAME=pipelining-lab");
	}

	/** The services a profile starts: those naming it, and what they depend on. */
	private static Set<String> servicesOf(String profile, Map<String, Map<String, Object>> services) {
		Set<String> selected = new LinkedHashSet<>();
		services.forEach((name, service) -> {
			if (((List<?>) service.get("profiles")).contains(profile)) {
				selected.add(name);
			}
		});
		for (String name : new ArrayList<>(selected)) {
			Object dependsOn = services.get(name).get("depends_on");
			if (dependsOn instanceof Map<?, ?> map) {
				map.keySet()
					.forEach((dependency) -> assertThat(selected).as(name + " depends on " + dependency)
						.contains(String.valueOf(dependency)));
			}
		}
		return selected;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> services() throws IOException {
		return (Map<String, Map<String, Object>>) load().get("services");
	}

	private static Map<String, Object> load() throws IOException {
		return loadYaml(FILE);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> loadYaml(Path file) throws IOException {
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		try (Reader reader = Files.newBufferedReader(file)) {
			return (Map<String, Object>) new Yaml(options).load(reader);
		}
	}

	private static List<String> strings(Object list) {
		return ((List<?>) list).stream().map(String::valueOf).toList();
	}

	private static List<String> concat(List<String> command, String... args) {
		List<String> all = new ArrayList<>(command);
		all.addAll(List.of(args));
		return all;
	}

	private static boolean runs(List<String> command) {
		return Commands.succeeds(command);
	}

}
