package dev.pipelininglab.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ChildProcesses;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.testsupport.TestLettuce;
import io.fabric8.kubernetes.api.model.Probe;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The app as its container image runs it. {@code jib:buildTar} builds the image from
 * pom.xml's configuration, on a stand-in base image made here (the real base, Temurin's
 * JRE, is in a registry this machine does not reach), and the test reads the image's
 * config from the tarball itself. Then it lays out the image's {@code /app} layers and
 * starts them with the image's entry point and exactly the image's environment, plus only
 * what a deployment adds (the test Redis as SPRING_DATA_REDIS_*, a free SERVER_PORT): one
 * app, shared by the checks that need one (Compose's healthcheck, Kubernetes' probes, the
 * Grafana dashboard's metrics), and stopped last with SIGTERM as a pod is.
 * <p>
 * {@code LAB_IMAGE_TAR} names a tarball built on the real base (the GitHub workflow sets
 * it); without it that check reports itself skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SlowTest
class DeploymentTests {

	private static final Duration START = Duration.ofSeconds(120);

	private static final String USER = "lab";

	private static final String PASSWORD = "deployment-tests-password";

	private final JibConfiguration jib = JibConfiguration.read();

	private Path work;

	private ImageTarball image;

	private Process app;

	private Path log;

	/** With the credentials, as a user sends them. */
	private Http http;

	/** Without: what the probes and anyone else send. */
	private Http anonymous;

	private StandaloneRedis redis;

	@BeforeAll
	void buildTheImageAndStartItsApp() throws Exception {
		this.work = Files.createTempDirectory("deployment-tests");
		Path base = ImageTarball.writeStandInBase(this.work.resolve("stand-in-base.tar"));
		Path tar = this.work.resolve("image.tar");
		Path buildLog = this.work.resolve("jib.log");
		long building = System.nanoTime();
		// The classes the surrounding build compiled; Jib adds no execution of its own.
		ProcessBuilder jib = new ProcessBuilder("./mvnw", "-B", "-q", "jib:buildTar", "-Djib.from.image=tar://" + base,
				"-Djib.disableUpdateChecks=true", "-Djib.outputPaths.tar=" + tar,
				"-Djib.outputPaths.digest=" + this.work.resolve("digest"),
				"-Djib.outputPaths.imageId=" + this.work.resolve("id"),
				"-Djib.outputPaths.imageJson=" + this.work.resolve("image.json"))
			.redirectErrorStream(true)
			.redirectOutput(buildLog.toFile());
		Process build = jib.start();
		assertThat(build.waitFor(5, TimeUnit.MINUTES)).as("jib:buildTar within 5 minutes").isTrue();
		assertThat(build.exitValue()).as("jib:buildTar: %s", Files.readString(buildLog)).isZero();
		this.image = new ImageTarball(tar);
		long starting = System.nanoTime();

		Path root = this.work.resolve("root");
		this.image.extract("app/", root);
		// The class path file names /app/...: here that is root/app/...
		Path classpath = root.resolve("app/jib-classpath-file");
		Files.writeString(classpath, Files.readString(classpath).replace("/app/", root.resolve("app") + "/"));
		List<String> command = new ArrayList<>();
		for (JsonNode argument : this.image.config().path("Entrypoint")) {
			command.add(argument.asString());
		}
		assertThat(command.get(0)).isEqualTo("java");
		command.set(0, ProcessHandle.current().info().command().orElse("java"));
		command.replaceAll((argument) -> argument.equals("@/app/jib-classpath-file") ? "@" + classpath : argument);

		this.redis = RedisTestServers.standalone();
		int port = RedisServerProcess.freePort();
		ProcessBuilder start = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
		this.log = this.work.resolve("app.log");
		start.redirectOutput(this.log.toFile());
		// Exactly the image's environment, nothing inherited from this JVM's, plus what a
		// deployment adds: where Redis is, and a port free here (the image's 8080 may not
		// be).
		start.environment().clear();
		start.environment().putAll(this.image.environment());
		start.environment().put("SPRING_DATA_REDIS_HOST", this.redis.host());
		start.environment().put("SPRING_DATA_REDIS_PORT", Integer.toString(this.redis.port()));
		start.environment().put("SERVER_PORT", Integer.toString(port));
		// ... and the credentials the Deployment takes from its Secret: the image listens
		// on every interface, where the app does not start without them.
		start.environment().put("SPRING_SECURITY_USER_NAME", USER);
		start.environment().put("SPRING_SECURITY_USER_PASSWORD", PASSWORD);
		this.app = start.start();
		this.anonymous = new Http(port, Duration.ofSeconds(60));
		this.http = this.anonymous.withBasic(USER, PASSWORD);
		Process started = this.app;
		await().atMost(START)
			.pollInterval(Duration.ofMillis(250))
			.ignoreExceptions()
			.failFast("the app from the image exited", () -> !started.isAlive())
			.until(() -> this.anonymous.get("/actuator/health/readiness").statusCode() == 200);
		System.out.printf("[deploy] jib:buildTar on the stand-in base: %d ms; the app from the image ready: %d ms%n",
				(starting - building) / 1_000_000, (System.nanoTime() - starting) / 1_000_000);
	}

	@AfterAll
	void stop() throws IOException, InterruptedException {
		if (this.app != null && this.app.isAlive()) {
			this.app.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
		if (this.work != null) {
			FileSystemUtils.deleteRecursively(this.work);
		}
	}

	@Test
	@Order(1)
	void pomConfiguresANonRootImageThatListensEverywhereAndNeverStartsItsOwnRedis() throws IOException {
		assertThat(this.jib.baseImage()).matches("eclipse-temurin:17(\\.[0-9.]+)?-jre.*|gcr\\.io/distroless/java17.*");
		assertThat(this.jib.mainClass()).isEqualTo(PipeliningLabApplication.class.getName());
		assertThat(this.jib.user()).matches("\\d+:\\d+").doesNotStartWith("0:");
		assertThat(this.jib.port()).isEqualTo(8080);
		assertThat(this.jib.environment()).containsEntry("SERVER_ADDRESS", "0.0.0.0")
			.containsEntry("LAB_LOCALREDIS_ENABLED", "false");
		assertThat(this.jib.environment().keySet()).allSatisfy(
				(variable) -> assertThat(Properties.known()).contains(Properties.fromEnvironmentVariable(variable)));
		assertThat(this.jib.maxRamPercentage()).isBetween(50.0, 80.0);
		assertThat(this.jib.labels()).containsEntry("org.opencontainers.image.version", "${project.version}");
		assertThat(this.jib.boundToLifecycle()).as("./mvnw verify must not build an image").isFalse();
	}

	@Test
	@Order(2)
	void theImageTarballCarriesTheEntrypointUserPortAndEnvironment() throws IOException {
		assertCarriesTheConfiguration(this.image);
	}

	@Test
	@Order(3)
	void theImageOnItsRealBaseCarriesTheSameAndHasItsUser() throws IOException {
		String real = System.getenv("LAB_IMAGE_TAR");
		assumeTrue(real != null && !real.isBlank(), "LAB_IMAGE_TAR is not set: building on " + this.jib.baseImage()
				+ " needs its registry, which this machine does not reach (the GitHub workflow builds it)");
		ImageTarball built = new ImageTarball(Path.of(real));
		assertCarriesTheConfiguration(built);
		String uid = this.jib.user().split(":")[0];
		assertThat(built.fileText("etc/passwd")).as("the base image has the user")
			.containsPattern("(?m)^[^:]+:[^:]*:" + uid + ":");
	}

	@Test
	@Order(4)
	void theAppFromTheImageServesPipesetAndStartsNoRedisOfItsOwn() {
		assertThat(this.anonymous.get("/pipeset/1000").statusCode()).as("without the credentials").isEqualTo(401);
		HttpResponse<String> response = this.http.get("/pipeset/1000");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(JsonPath.<Integer>read(response.body(), "$.verified")).isEqualTo(1000);
		assertThat(this.app.descendants().filter(ProcessHandle::isAlive).toList())
			.as("processes the app from the image started")
			.isEmpty();
	}

	/**
	 * The image's LAB_LOCALREDIS_ENABLED=false is the property the launcher reads: with
	 * the image's environment and nothing on the Redis port, no redis-server starts;
	 * without that one variable, the same start starts one.
	 */
	@Test
	@Order(5)
	void theImagesEnvironmentKeepsTheLocalRedisLauncherOff() throws IOException {
		Map<String, Object> environment = new HashMap<>(this.image.environment());
		int redisPort = RedisServerProcess.freePort();
		environment.put("SPRING_DATA_REDIS_HOST", "127.0.0.1");
		environment.put("SPRING_DATA_REDIS_PORT", Integer.toString(redisPort));
		Set<Long> before = ChildProcesses.live();
		try (ConfigurableApplicationContext context = startWith(environment)) {
			Set<Long> started = new java.util.HashSet<>(ChildProcesses.live());
			started.removeAll(before);
			assertThat(started).as("child processes started with the image's environment").isEmpty();
			assertThat(answersPing("127.0.0.1", redisPort)).isFalse();
		}
		environment.remove("LAB_LOCALREDIS_ENABLED");
		try (ConfigurableApplicationContext context = startWith(environment)) {
			assertThat(answersPing("127.0.0.1", redisPort))
				.as("without LAB_LOCALREDIS_ENABLED=false the launcher starts one")
				.isTrue();
		}
	}

	/** After a run, the scrape has every metric the Grafana dashboard queries. */
	@Test
	@Order(6)
	void everyMetricTheDashboardQueriesIsInTheScrapeAfterARun() throws IOException {
		assertThat(this.http.get("/pipeset/1000").statusCode()).isEqualTo(200);
		String scrape = this.http.get("/actuator/prometheus").body();
		Set<String> names = GrafanaDashboardTests.metricNames();
		assertThat(names).hasSizeGreaterThanOrEqualTo(8);
		assertThat(names).allSatisfy((name) -> assertThat(
				scrape.lines().anyMatch((line) -> line.startsWith(name + "{") || line.startsWith(name + " ")))
			.as("%s in /actuator/prometheus", name)
			.isTrue());
		assertThat(scrape).contains("lab_health_ready 1.0");
	}

	/**
	 * Kubernetes' probes, as the Deployment sends them (path, Host header, no
	 * credentials), answer 200; a probe with the pod's IP as Host would get 403, which is
	 * why they name one.
	 */
	@Test
	@Order(7)
	void theDeploymentsProbesAnswer200() throws IOException {
		var container = KubernetesManifestTests.container();
		for (Probe probe : List.of(container.getStartupProbe(), container.getLivenessProbe(),
				container.getReadinessProbe())) {
			String host = probe.getHttpGet().getHttpHeaders().get(0).getValue();
			assertThat(statusLine(probe.getHttpGet().getPath(), host)).as(probe.getHttpGet().getPath())
				.startsWith("HTTP/1.1 200");
		}
		assertThat(statusLine("/actuator/health/readiness", "10.1.2.3")).startsWith("HTTP/1.1 403");
	}

	/**
	 * docker-compose.yml's healthcheck command, run as Docker would inside the container.
	 */
	@Test
	@Order(8)
	@SuppressWarnings("unchecked")
	void theComposeHealthcheckPassesAgainstTheApp() throws Exception {
		assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "the healthcheck runs bash, which is not here");
		LoaderOptions options = new LoaderOptions();
		options.setMaxAliasesForCollections(200);
		Map<String, Object> compose;
		try (Reader reader = Files.newBufferedReader(Path.of("docker-compose.yml"))) {
			compose = new Yaml(options).load(reader);
		}
		List<String> test = (List<String>) ((Map<String, Object>) ((Map<String, Object>) compose.get("x-app"))
			.get("healthcheck")).get("test");
		assertThat(test.subList(0, 3)).containsExactly("CMD", "bash", "-c");
		String script = test.get(3)
			.replace("$$", "$")
			.replace("/dev/tcp/127.0.0.1/8080", "/dev/tcp/127.0.0.1/" + this.http.uri("/").getPort());
		assertThat(script).contains("/dev/tcp/127.0.0.1/" + this.http.uri("/").getPort());
		Process check = new ProcessBuilder("/bin/bash", "-c", script).redirectErrorStream(true).start();
		assertThat(check.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(check.exitValue()).as(new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
			.isZero();
	}

	/**
	 * SIGTERM, as the kubelet sends it after the preStop pause: a long run in flight
	 * stops between commands and answers 503 instance-shutdown, and the process exits
	 * well within the pod's grace period.
	 */
	@Test
	@Order(100)
	void sigtermStopsARunBetweenCommandsAndTheProcessExitsWithinTheGracePeriod() throws Exception {
		// So the key awaited below is this run's, not one another test left.
		this.redis.flushAll();
		CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture
			.supplyAsync(() -> this.http.get("/loopset/100000?batchSize=10000"));
		try (StatefulRedisConnection<String, String> connection = TestLettuce.client()
			.connect(RedisURI.create(this.redis.host(), this.redis.port()))) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> connection.sync().exists("pipelining-lab:key:1000") == 1 || inFlight.isDone());
		}
		assertThat(inFlight).as("still running when SIGTERM comes").isNotDone();
		long signalled = System.nanoTime();
		this.app.destroy();
		HttpResponse<String> response = inFlight.get(60, TimeUnit.SECONDS);
		long answeredMillis = (System.nanoTime() - signalled) / 1_000_000;
		assertThat(this.app.waitFor(45, TimeUnit.SECONDS)).as("exited within terminationGracePeriodSeconds").isTrue();
		long exitedMillis = (System.nanoTime() - signalled) / 1_000_000;
		System.out.printf(
				"[deploy] SIGTERM during /loopset/100000: answered %d after %d ms, process exited %d (code"
						+ " %d) after %d ms%n",
				response.statusCode(), answeredMillis, this.app.pid(), this.app.exitValue(), exitedMillis);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		assertThat(JsonPath.<String>read(response.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:instance-shutdown");
		assertThat(this.app.exitValue()).as("exit code after SIGTERM").isIn(0, 143);
		assertThat(Files.readString(this.log)).contains("Graceful shutdown");
	}

	private void assertCarriesTheConfiguration(ImageTarball tarball) throws IOException {
		JsonNode config = tarball.config();
		List<String> entrypoint = new ArrayList<>();
		config.path("Entrypoint").forEach((argument) -> entrypoint.add(argument.asString()));
		List<String> expected = new ArrayList<>(List.of("java"));
		expected.addAll(this.jib.jvmFlags());
		expected.addAll(List.of("-cp", "@/app/jib-classpath-file", this.jib.mainClass()));
		assertThat(entrypoint).isEqualTo(expected);
		assertThat(config.path("User").asString()).isEqualTo(this.jib.user());
		assertThat(config.path("ExposedPorts").has(this.jib.port() + "/tcp")).isTrue();
		assertThat(tarball.environment()).containsAllEntriesOf(this.jib.environment());
		assertThat(config.path("Labels").path("org.opencontainers.image.version").asString())
			.isEqualTo(projectVersion());
	}

	private static String projectVersion() throws IOException {
		String pom = Files.readString(Path.of("pom.xml"));
		int artifact = pom.indexOf("<artifactId>pipelining-lab</artifactId>");
		int start = pom.indexOf("<version>", artifact) + "<version>".length();
		return pom.substring(start, pom.indexOf("</version>", start));
	}

	/**
	 * The launcher, as the app runs it, with {@code environment} as the process
	 * environment.
	 */
	private static ConfigurableApplicationContext startWith(Map<String, Object> environment) {
		StandardEnvironment standard = new StandardEnvironment();
		standard.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, environment));
		return new SpringApplicationBuilder(Empty.class).web(WebApplicationType.NONE)
			.environment(standard)
			.properties("spring.main.banner-mode=off")
			.run();
	}

	/**
	 * The status line of a GET sent with exactly this Host header (HttpClient sets its
	 * own).
	 */
	private String statusLine(String path, String host) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.http.uri("/").getPort()), 5000);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
			return answer.lines().findFirst().orElse("");
		}
	}

	/**
	 * Whether a Redis answers PING on the port now: the launcher starts its server before
	 * the application's run() returns, so there is nothing to wait for.
	 */
	private static boolean answersPing(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 1000);
			socket.setSoTimeout(2000);
			socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			byte[] reply = socket.getInputStream().readNBytes(5);
			return new String(reply, StandardCharsets.US_ASCII).equals("+PONG");
		}
		catch (IOException ex) {
			return false;
		}
	}

	static final class Empty {

	}

}
