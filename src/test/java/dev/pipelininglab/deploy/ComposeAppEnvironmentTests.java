package dev.pipelininglab.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app services of docker-compose.yml set only variables that are the environment form
 * of a property the app has: a misspelt one would be ignored without a word, and the app
 * would measure the wrong Redis or refuse the page's host.
 */
class ComposeAppEnvironmentTests {

	@Test
	@SuppressWarnings("unchecked")
	void everyVariableOfAnAppServiceIsAPropertyTheAppHas() throws IOException {
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		Map<String, Object> compose;
		try (Reader reader = Files.newBufferedReader(Path.of("docker-compose.yml"))) {
			compose = new Yaml(options).load(reader);
		}
		Set<String> variables = new TreeSet<>();
		((Map<String, Map<String, Object>>) compose.get("services")).forEach((name, service) -> {
			if (name.startsWith("app")) {
				variables.addAll(((Map<String, Object>) service.get("environment")).keySet());
			}
		});
		assertThat(variables).contains("SPRING_DATA_REDIS_HOST", "SPRING_DATA_REDIS_SENTINEL_NODES",
				"SPRING_DATA_REDIS_CLUSTER_NODES", "SPRING_DATA_REDIS_LETTUCE_READFROM", "LAB_SECURITY_ALLOWEDHOSTS");
		assertThat(variables)
			.allSatisfy((variable) -> assertThat(Properties.known()).as("%s names no property of the app", variable)
				.contains(Properties.fromEnvironmentVariable(variable)));
	}

	/**
	 * The fleet's replicas sign their messages with a secret from the environment (or a
	 * {@code .env} line nobody commits): the file names the variable and holds no value,
	 * and no other app joins fleet runs. Empty, the replicas refuse to start, saying how
	 * to set it ({@code ${...:?}} would refuse every profile, as Compose interpolates the
	 * whole file first).
	 */
	@Test
	@SuppressWarnings("unchecked")
	void theFleetSecretComesFromTheEnvironmentAndNoFileHoldsIt() throws IOException {
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		Map<String, Object> compose;
		try (Reader reader = Files.newBufferedReader(Path.of("docker-compose.yml"))) {
			compose = new Yaml(options).load(reader);
		}
		((Map<String, Map<String, Object>>) compose.get("services")).forEach((name, service) -> {
			Map<String, Object> environment = (Map<String, Object>) service.get("environment");
			if (name.equals("app-fleet")) {
				assertThat(environment).containsEntry("LAB_FLEET_JOIN", "true")
					.containsEntry("LAB_FLEET_SECRET", "${LAB_FLEET_SECRET:-}");
			}
			else if (environment != null) {
				assertThat(environment.keySet()).as(name).noneMatch((variable) -> variable.startsWith("LAB_FLEET_"));
			}
		});
		assertThat(Files.readString(Path.of(".env"))).doesNotContain("LAB_FLEET_SECRET");
	}

	/**
	 * The image listens on every interface, where the app starts without credentials only
	 * when told it is open: each app service says so, and its port is published on
	 * 127.0.0.1 only (by itself or by the service whose network it shares).
	 */
	@Test
	@SuppressWarnings("unchecked")
	void everyAppServiceIsOpenOnlyBehindAPortPublishedOnLoopback() throws IOException {
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		Map<String, Object> compose;
		try (Reader reader = Files.newBufferedReader(Path.of("docker-compose.yml"))) {
			compose = new Yaml(options).load(reader);
		}
		Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
		Set<String> apps = new TreeSet<>();
		services.forEach((name, service) -> {
			if (!name.startsWith("app")) {
				return;
			}
			apps.add(name);
			Map<String, Object> environment = (Map<String, Object>) service.get("environment");
			assertThat(environment).as(name).containsEntry("LAB_SECURITY_OPEN", "true");
			String network = String.valueOf(service.getOrDefault("network_mode", "service:" + name));
			Object ports = services.get(network.substring("service:".length())).get("ports");
			assertThat((List<String>) ports).as("ports of %s's network", name)
				.isNotEmpty()
				.allSatisfy((port) -> assertThat(port).startsWith("127.0.0.1:"));
		});
		assertThat(apps).contains("app", "app-sentinel", "app-cluster", "app-rtt", "app-fleet");
	}

}
