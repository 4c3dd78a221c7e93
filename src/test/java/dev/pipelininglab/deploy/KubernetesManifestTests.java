package dev.pipelininglab.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.pipelininglab.testsupport.Commands;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy/kubernetes: every manifest parses into the Kubernetes API types with no field
 * the API lacks; the kustomizations name files that exist and patch resources the base
 * has; the Deployment's probes, resources and security context agree with the app and the
 * image (whether the app answers on the probe paths: {@link DeploymentTests}; its grace
 * period: {@link ShutdownBudgetTests}); every environment variable is a property the app
 * has. With {@code kubectl} on the PATH, each overlay is also rendered by kustomize and
 * parsed the same way, and the fleet overlay is checked to be the cluster overlay with
 * more pods that join fleet runs and nothing else changed.
 */
class KubernetesManifestTests {

	static final Path KUBERNETES = Path.of("deploy/kubernetes");

	static final Path BASE = KUBERNETES.resolve("base");

	static final List<String> OVERLAYS = List.of("standalone", "sentinel", "cluster", "fleet");

	/** The fields of a Kustomization these files may use (kustomize's v1beta1 names). */
	private static final Set<String> KUSTOMIZATION_FIELDS = Set.of("apiVersion", "kind", "labels", "resources",
			"patches", "images", "namespace");

	@Test
	void everyManifestParsesIntoTheKubernetesApiTypes() throws IOException {
		List<Path> manifests = manifests();
		assertThat(manifests).hasSizeGreaterThanOrEqualTo(8);
		Set<String> kinds = new TreeSet<>();
		for (Path manifest : manifests) {
			KubernetesYaml.parseAll(manifest).forEach((resource) -> kinds.add(resource.getKind()));
		}
		assertThat(kinds).containsExactly("ConfigMap", "Deployment", "NetworkPolicy", "Secret", "Service");
	}

	@Test
	void aFieldTheApiDoesNotHaveFailsTheParse() {
		Map<String, Object> misspelt = Map.of("apiVersion", "v1", "kind", "Service", "metadata", Map.of("name", "x"),
				"spec", Map.of("prots", List.of(Map.of("port", 8080))));
		Map<String, Object> numberInData = Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata",
				Map.of("name", "x"), "data", Map.of("SPRING_DATA_REDIS_PORT", 6379));
		Map<String, Object> deepInADeployment = Map.of("apiVersion", "apps/v1", "kind", "Deployment", "metadata",
				Map.of("name", "x"), "spec",
				Map.of("template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "x", "livenessProbe",
						Map.of("httpGet", Map.of("paht", "/actuator/health/liveness", "port", 8080))))))));
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(misspelt, "misspelt"))
			.hasMessageContaining("prots");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(deepInADeployment, "deep"))
			.hasMessageContaining("paht");
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubernetesYaml.parse(numberInData, "number"))
			.hasMessageContaining("not a valid ConfigMap");
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "base", "overlays/standalone", "overlays/sentinel", "overlays/cluster", "overlays/fleet" })
	void kustomizationsNameFilesThatExistAndPatchResourcesTheBaseHas(String directory) throws IOException {
		Path dir = KUBERNETES.resolve(directory);
		Map<String, Object> kustomization = KubernetesYaml.documents(dir.resolve("kustomization.yaml")).get(0);
		assertThat(kustomization.keySet()).isSubsetOf(KUSTOMIZATION_FIELDS);
		assertThat(kustomization).containsEntry("apiVersion", "kustomize.config.k8s.io/v1beta1")
			.containsEntry("kind", "Kustomization");
		for (Object resource : (List<?>) kustomization.get("resources")) {
			Path target = dir.resolve(String.valueOf(resource)).normalize();
			assertThat(Files.isRegularFile(target) || Files.isRegularFile(target.resolve("kustomization.yaml")))
				.as("%s names %s", dir, resource)
				.isTrue();
		}
		Set<String> baseResources = new LinkedHashSet<>();
		for (HasMetadata resource : baseResources()) {
			baseResources.add(resource.getKind() + "/" + resource.getMetadata().getName());
		}
		for (Object patch : (List<?>) kustomization.getOrDefault("patches", List.of())) {
			Path file = dir.resolve(String.valueOf(((Map<?, ?>) patch).get("path")));
			assertThat(file).isRegularFile();
			for (HasMetadata patched : KubernetesYaml.parseAll(file)) {
				assertThat(baseResources).as("%s patches a resource the base has", file)
					.contains(patched.getKind() + "/" + patched.getMetadata().getName());
			}
		}
	}

	/**
	 * The probes ask Actuator's probe groups, through the container port the image
	 * exposes, with a Host the app answers to; liveness leaves Redis out, readiness does
	 * not (application.yml's groups).
	 */
	@Test
	void probesAskActuatorsProbeGroupsOnTheImagesPort() throws IOException {
		Container container = container();
		assertThat(container.getPorts()).singleElement().satisfies((port) -> {
			assertThat(port.getName()).isEqualTo("http");
			assertThat(port.getContainerPort()).isEqualTo(JibConfiguration.read().port());
		});
		assertThat(path(container.getLivenessProbe())).isEqualTo("/actuator/health/liveness");
		assertThat(path(container.getStartupProbe())).isEqualTo("/actuator/health/liveness");
		assertThat(path(container.getReadinessProbe())).isEqualTo("/actuator/health/readiness");
		for (Probe probe : List.of(container.getLivenessProbe(), container.getReadinessProbe(),
				container.getStartupProbe())) {
			HTTPGetAction get = probe.getHttpGet();
			assertThat(get.getPort().getStrVal()).isEqualTo("http");
			assertThat(get.getHttpHeaders()).singleElement().satisfies((header) -> {
				assertThat(header.getName()).isEqualTo("Host");
				assertThat(header.getValue()).isEqualTo("localhost");
			});
		}
		String application = Files.readString(Path.of("src/main/resources/application.yml"));
		assertThat(application).contains("readiness:\n          include: readinessState,redis")
			.contains("probes:\n        enabled: true");
	}

	/**
	 * The memory limit is what the heap is a share of (-XX:MaxRAMPercentage in the
	 * image), the request equals it, and a quarter of it (at least 256 MiB) is left for
	 * what is not heap.
	 */
	@Test
	void resourcesMatchTheJvmSettingsOfTheImage() throws IOException {
		Container container = container();
		Quantity limit = container.getResources().getLimits().get("memory");
		assertThat(container.getResources().getRequests().get("memory")).isEqualTo(limit);
		double percentage = JibConfiguration.read().maxRamPercentage();
		long bytes = Quantity.getAmountInBytes(limit).longValueExact();
		long heap = (long) (bytes * percentage / 100);
		assertThat(bytes - heap).as("memory beside a %s%% heap", percentage).isGreaterThanOrEqualTo(256L << 20);
		assertThat(heap).as("heap").isGreaterThanOrEqualTo(512L << 20);
		assertThat(container.getResources().getLimits()).as("no CPU limit: throttling would look like Redis latency")
			.doesNotContainKey("cpu");
	}

	@Test
	void runsAsTheImagesNonRootUserWithNothingToEscalate() throws IOException {
		PodSpec pod = deployment().getSpec().getTemplate().getSpec();
		String[] user = JibConfiguration.read().user().split(":");
		assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
		assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(Long.parseLong(user[0])).isNotZero();
		assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(Long.parseLong(user[1]));
		Container container = container();
		assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
		assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
		assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
		assertThat(container.getVolumeMounts()).as("a writable /tmp beside the read-only root")
			.anySatisfy((mount) -> assertThat(mount.getMountPath()).isEqualTo("/tmp"));
	}

	/**
	 * Every variable the ConfigMaps and the Secret hold, or the Deployment sets, is the
	 * environment form of a property the app has (Spring Boot's metadata and the lab's):
	 * upper case, dots to underscores, dashes dropped.
	 */
	@Test
	void everyEnvironmentVariableIsAPropertyTheAppHas() throws IOException {
		Set<String> variables = new TreeSet<>();
		for (Path manifest : manifests()) {
			for (HasMetadata resource : KubernetesYaml.parseAll(manifest)) {
				if (resource instanceof ConfigMap configMap) {
					variables.addAll(configMap.getData().keySet());
				}
				if (resource instanceof Secret secret) {
					variables.addAll(secret.getStringData().keySet());
				}
				if (resource instanceof Deployment deployment) {
					deployment.getSpec()
						.getTemplate()
						.getSpec()
						.getContainers()
						.forEach((container) -> container.getEnv().forEach((env) -> variables.add(env.getName())));
				}
			}
		}
		assertThat(variables).contains("SPRING_DATA_REDIS_HOST", "SPRING_DATA_REDIS_PASSWORD",
				"SPRING_DATA_REDIS_SENTINEL_NODES", "SPRING_DATA_REDIS_CLUSTER_NODES", "LAB_SECURITY_ALLOWEDHOSTS");
		assertThat(variables)
			.allSatisfy((variable) -> assertThat(Properties.known()).as("%s names no property of the app", variable)
				.contains(Properties.fromEnvironmentVariable(variable)));
	}

	@Test
	void theServiceSelectsThePodsOnTheirNamedPort() throws IOException {
		Service service = (Service) baseResources().stream()
			.filter(Service.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(service.getSpec().getPorts()).singleElement()
			.satisfies((port) -> assertThat(port.getTargetPort().getStrVal()).isEqualTo("http"));
		String kustomization = Files.readString(BASE.resolve("kustomization.yaml"));
		assertThat(kustomization).as("selector and pod labels come from the kustomization's labels")
			.contains("includeSelectors: true");
	}

	/**
	 * What {@code kubectl apply -k} would send: kustomize's output for each overlay,
	 * parsed as strictly, with the overlay's Redis settings merged into the base's.
	 */
	@ParameterizedTest(name = "{0}")
	@FieldSource("OVERLAYS")
	void eachOverlayRendersWithKustomize(String overlay) throws Exception {
		List<HasMetadata> resources = render(overlay);
		assertThat(resources).extracting(HasMetadata::getKind)
			.containsExactlyInAnyOrder("ConfigMap", "Secret", "Service", "Deployment", "NetworkPolicy");
		ConfigMap redis = (ConfigMap) resources.stream().filter(ConfigMap.class::isInstance).findFirst().orElseThrow();
		assertThat(redis.getData()).containsKeys("LAB_SECURITY_ALLOWEDHOSTS", "LAB_JOBS_SHUTDOWNWAIT")
			.containsKey(switch (overlay) {
				case "sentinel" -> "SPRING_DATA_REDIS_SENTINEL_NODES";
				case "cluster", "fleet" -> "SPRING_DATA_REDIS_CLUSTER_NODES";
				default -> "SPRING_DATA_REDIS_HOST";
			});
		Deployment deployment = (Deployment) resources.stream()
			.filter(Deployment.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
			.containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
		assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
			.isEqualTo("pipelining-lab:latest");
		NetworkPolicy policy = (NetworkPolicy) resources.stream()
			.filter(NetworkPolicy.class::isInstance)
			.findFirst()
			.orElseThrow();
		assertThat(policy.getSpec().getPodSelector().getMatchLabels())
			.isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
		assertTheIngressPeers(policy);
	}

	/**
	 * The fleet's own files: more than one pod, each joining fleet runs, the base's
	 * container left as it is but for the fleet's secret, which comes from a Secret no
	 * manifest ships, and no host port or host network, which would allow one pod per
	 * node and clash there.
	 */
	@Test
	@SuppressWarnings("unchecked")
	void theFleetOverlayScalesTheDeploymentAndEveryPodJoinsFleetRuns() throws IOException {
		Path fleet = KUBERNETES.resolve("overlays/fleet");
		Deployment deployment = (Deployment) KubernetesYaml.parseAll(fleet.resolve("fleet-deployment.yaml")).get(0);
		assertThat(deployment.getSpec().getReplicas()).isGreaterThan(1);
		PodSpec pod = deployment.getSpec().getTemplate().getSpec();
		assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
		assertThat(pod.getContainers()).singleElement().satisfies((patched) -> {
			assertThat(patched.getName()).isEqualTo(container().getName());
			assertFleetSecret(patched);
		});
		Map<String, Object> raw = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) KubernetesYaml
			.documents(fleet.resolve("fleet-deployment.yaml"))
			.get(0)
			.get("spec")).get("template")).get("spec");
		assertThat(((List<Map<String, Object>>) raw.get("containers")).get(0))
			.as("the base's container, probes and all, unchanged")
			.containsOnlyKeys("name", "env");
		for (Path manifest : manifests()) {
			for (HasMetadata resource : KubernetesYaml.parseAll(manifest)) {
				assertThat(key(resource)).as(manifest.toString()).isNotEqualTo("Secret/pipelining-lab-fleet");
			}
		}
		assertThat(container().getPorts()).allSatisfy((port) -> assertThat(port.getHostPort()).isNull());
		ConfigMap configMap = (ConfigMap) KubernetesYaml.parseAll(fleet.resolve("fleet-configmap.yaml")).get(0);
		assertThat(configMap.getData()).containsExactlyEntriesOf(Map.of("LAB_FLEET_JOIN", "true"));
		assertThat(Files.readString(fleet.resolve("kustomization.yaml"))).as("says why not an Indexed Job")
			.contains("Indexed Job");
	}

	/** Its one variable, from the Secret no manifest ships, and never optional. */
	private static void assertFleetSecret(Container container) {
		assertThat(container.getEnv()).filteredOn((env) -> env.getName().equals("LAB_FLEET_SECRET"))
			.singleElement()
			.satisfies((env) -> {
				var secret = env.getValueFrom().getSecretKeyRef();
				assertThat(secret.getName() + "/" + secret.getKey()).isEqualTo("pipelining-lab-fleet/secret");
				assertThat(secret.getOptional()).isNotEqualTo(Boolean.TRUE);
			});
	}

	/**
	 * What {@code kubectl apply -k overlays/fleet} sends is the cluster overlay's
	 * resources with only the pod count, the spread over nodes, {@code LAB_FLEET_JOIN}
	 * and the fleet's secret added: the probes, the credentials, the Service and the
	 * NetworkPolicy stay as they are. The policy needs no rule between the pods, as
	 * members never call each other: they meet in the Redis they measure, and egress is
	 * not restricted.
	 */
	@Test
	void theFleetOverlayIsTheClusterOverlayWithMorePodsThatJoin() throws Exception {
		Map<String, HasMetadata> cluster = new TreeMap<>();
		render("cluster").forEach((resource) -> cluster.put(key(resource), resource));
		List<HasMetadata> fleet = render("fleet");
		assertThat(fleet).extracting(KubernetesManifestTests::key)
			.containsExactlyInAnyOrderElementsOf(cluster.keySet());
		for (HasMetadata resource : fleet) {
			if (resource instanceof Deployment deployment) {
				assertThat(deployment.getSpec().getReplicas()).isGreaterThan(1);
				PodSpec pod = deployment.getSpec().getTemplate().getSpec();
				assertThat(pod.getTopologySpreadConstraints()).singleElement().satisfies((spread) -> {
					assertThat(spread.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
					assertThat(spread.getWhenUnsatisfiable()).as("still starts on a cluster of fewer nodes")
						.isEqualTo("ScheduleAnyway");
					assertThat(spread.getLabelSelector().getMatchLabels())
						.isEqualTo(deployment.getSpec().getSelector().getMatchLabels());
				});
				deployment.getSpec().setReplicas(1);
				pod.setTopologySpreadConstraints(List.of());
				Container container = pod.getContainers().get(0);
				assertFleetSecret(container);
				container.getEnv().removeIf((env) -> env.getName().equals("LAB_FLEET_SECRET"));
			}
			if (resource instanceof ConfigMap configMap) {
				assertThat(configMap.getData().remove("LAB_FLEET_JOIN")).isEqualTo("true");
			}
			if (resource instanceof NetworkPolicy policy) {
				assertThat(policy.getSpec().getPolicyTypes()).as("egress open: the pods reach their Redis")
					.containsExactly("Ingress");
			}
			assertThat(resource).as(key(resource)).usingRecursiveComparison().isEqualTo(cluster.get(key(resource)));
		}
	}

	private static String key(HasMetadata resource) {
		return resource.getKind() + "/" + resource.getMetadata().getName();
	}

	/** What {@code kubectl kustomize} renders for an overlay, parsed strictly. */
	private static List<HasMetadata> render(String overlay) throws Exception {
		assumeTrue(Commands.succeeds(List.of("kubectl", "version", "--client")),
				"kubectl (with its built-in kustomize) is not installed here; the GitHub workflow renders the overlays");
		Path rendered = Files.createTempFile("kustomize-" + overlay, ".yaml");
		try {
			Process process = new ProcessBuilder("kubectl", "kustomize",
					KUBERNETES.resolve("overlays/" + overlay).toString())
				.redirectErrorStream(true)
				.redirectOutput(rendered.toFile())
				.start();
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			assertThat(process.exitValue()).as(Files.readString(rendered, StandardCharsets.UTF_8)).isZero();
			return KubernetesYaml.parseAll(rendered);
		}
		finally {
			Files.deleteIfExists(rendered);
		}
	}

	/**
	 * Beyond loopback (the image's SERVER_ADDRESS=0.0.0.0) the app asks for HTTP Basic:
	 * the Deployment takes Spring Boot's {@code spring.security.user.*} from a Secret
	 * that no manifest ships (an apply would blank the one the user made), and nothing
	 * turns the check off.
	 */
	@Test
	void theCredentialsComeFromASecretNoManifestShipsAndNothingOpensThePort() throws IOException {
		Container container = container();
		Map<String, String> fromSecrets = new java.util.TreeMap<>();
		container.getEnv().forEach((env) -> {
			var secret = env.getValueFrom().getSecretKeyRef();
			assertThat(secret.getOptional()).as(env.getName()).isNotEqualTo(Boolean.TRUE);
			fromSecrets.put(env.getName(), secret.getName() + "/" + secret.getKey());
		});
		assertThat(fromSecrets).containsExactlyInAnyOrderEntriesOf(Map.of("SPRING_SECURITY_USER_NAME",
				"pipelining-lab-login/username", "SPRING_SECURITY_USER_PASSWORD", "pipelining-lab-login/password"));
		assertThat(JibConfiguration.read().environment()).containsEntry("SERVER_ADDRESS", "0.0.0.0");
		for (Path manifest : manifests()) {
			for (HasMetadata resource : KubernetesYaml.parseAll(manifest)) {
				assertThat(resource.getKind() + "/" + resource.getMetadata().getName()).as(manifest.toString())
					.isNotEqualTo("Secret/pipelining-lab-login");
				if (resource instanceof ConfigMap configMap) {
					assertThat(configMap.getData()).as(manifest.toString()).doesNotContainKey("LAB_SECURITY_OPEN");
				}
			}
		}
	}

	/**
	 * The port admits the lab's own clients (pods labelled so in its namespace) and
	 * Prometheus, on the named port only; the probes and {@code kubectl port-forward} are
	 * not held back by a NetworkPolicy.
	 */
	@Test
	void theNetworkPolicyAdmitsOnlyTheLabsClientsAndPrometheusToThePort() throws IOException {
		NetworkPolicy policy = (NetworkPolicy) KubernetesYaml.parseAll(BASE.resolve("networkpolicy.yaml")).get(0);
		assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
		assertThat(policy.getSpec().getPodSelector().getMatchLabels())
			.containsExactlyEntriesOf(Map.of("app.kubernetes.io/name", "pipelining-lab"));
		assertTheIngressPeers(policy);
	}

	/** After kustomize too: its labels would have widened a {@code matchLabels} peer. */
	private static void assertTheIngressPeers(NetworkPolicy policy) {
		assertThat(policy.getSpec().getIngress()).singleElement().satisfies((rule) -> {
			assertThat(rule.getPorts()).singleElement().satisfies((port) -> {
				assertThat(port.getPort().getStrVal()).isEqualTo("http");
				assertThat(port.getProtocol()).isEqualTo("TCP");
			});
			assertThat(rule.getFrom()).hasSize(2);
			var clients = rule.getFrom().get(0);
			assertThat(clients.getNamespaceSelector()).as("this namespace only").isNull();
			assertThat(clients.getPodSelector().getMatchLabels()).isNullOrEmpty();
			assertThat(clients.getPodSelector().getMatchExpressions()).singleElement().satisfies((expression) -> {
				assertThat(expression.getKey()).isEqualTo("pipelining-lab/client");
				assertThat(expression.getOperator()).isEqualTo("In");
				assertThat(expression.getValues()).containsExactly("true");
			});
			var prometheus = rule.getFrom().get(1);
			assertThat(prometheus.getNamespaceSelector().getMatchLabels()).isNullOrEmpty();
			assertThat(prometheus.getPodSelector().getMatchLabels()).isNullOrEmpty();
			assertThat(prometheus.getPodSelector().getMatchExpressions()).singleElement().satisfies((expression) -> {
				assertThat(expression.getKey()).isEqualTo("app.kubernetes.io/name");
				assertThat(expression.getValues()).containsExactly("prometheus");
			});
		});
	}

	static List<Path> manifests() throws IOException {
		try (Stream<Path> files = Files.walk(KUBERNETES)) {
			return files.filter((file) -> file.toString().endsWith(".yaml"))
				.filter((file) -> !file.getFileName().toString().equals("kustomization.yaml"))
				.sorted()
				.toList();
		}
	}

	private static List<HasMetadata> baseResources() throws IOException {
		List<HasMetadata> resources = new ArrayList<>();
		for (Object resource : (List<?>) KubernetesYaml.documents(BASE.resolve("kustomization.yaml"))
			.get(0)
			.get("resources")) {
			resources.addAll(KubernetesYaml.parseAll(BASE.resolve(String.valueOf(resource))));
		}
		return resources;
	}

	static Deployment deployment() throws IOException {
		return (Deployment) KubernetesYaml.parseAll(BASE.resolve("deployment.yaml")).get(0);
	}

	static Container container() throws IOException {
		return deployment().getSpec().getTemplate().getSpec().getContainers().get(0);
	}

	private static String path(Probe probe) {
		return probe.getHttpGet().getPath();
	}

}
