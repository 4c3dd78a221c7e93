package dev.pipelininglab.reliability;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.ChildProcesses;
import dev.pipelininglab.testsupport.Http;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole application, started as {@code main} starts it, with nothing listening on its
 * Redis port: the local redis-server launcher starts one. Closing the application while a
 * long run is in flight stops the run between commands, answers it with a 503
 * {@code instance-shutdown} problem (graceful shutdown no longer waits for a run that can
 * last hours), and then stops that redis-server: no process outlives the application.
 * What such a run wrote keeps its expiry: the closing app gives it before its connections
 * close.
 */
@SlowTest
class GracefulShutdownTests {

	/** A loop of this many SETs runs for about ten seconds here: long past the close. */
	private static final int COUNT = 100_000;

	private static final int BATCH = 10_000;

	@Test
	void anInFlightRunStopsBetweenCommandsAndTheLocalRedisServerIsStoppedWithTheApp() throws Exception {
		int redisPort = RedisServerProcess.freePort();
		Set<Long> childrenBefore = ChildProcesses.live();
		// Command-line arguments, since builder properties are defaults that
		// application.yml would override.
		ConfigurableApplicationContext app = new SpringApplicationBuilder(PipeliningLabApplication.class).run(
				"--server.port=0", "--spring.main.banner-mode=off", "--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + redisPort, "--lab.local-redis.enabled=true");
		Set<Long> started = new HashSet<>(ChildProcesses.live());
		started.removeAll(childrenBefore);
		assertThat(started).as("the redis-server the launcher started").hasSize(1);
		long redisPid = started.iterator().next();
		int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));

		Http http = new Http(port, Duration.ofSeconds(120));
		CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture
			.supplyAsync(() -> http.get("/loopset/" + COUNT + "?batchSize=" + BATCH));
		try (Admin admin = Admin.connect("127.0.0.1", redisPort)) {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> admin.sync().exists("pipelining-lab:key:" + BATCH / 10) == 1 || inFlight.isDone());
		}
		assertThat(inFlight).as("still running when shutdown starts").isNotDone();

		long closing = System.nanoTime();
		CompletableFuture<Void> shutdown = CompletableFuture.runAsync(app::close);

		HttpResponse<String> response = inFlight.get(60, TimeUnit.SECONDS);
		shutdown.get(60, TimeUnit.SECONDS);
		System.out.printf("[reliability] graceful shutdown: in-flight run answered %d, context closed %d ms after"
				+ " close() was called%n", response.statusCode(), (System.nanoTime() - closing) / 1_000_000);

		assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
		assertThat(JsonPath.<String>read(response.body(), "$.type"))
			.isEqualTo("urn:pipelining-lab:problem:instance-shutdown");
		// Sent whole with its length inside the servlet, not chunked with a last chunk
		// that the stopping web server could cut off.
		assertThat(response.headers().firstValueAsLong("Content-Length"))
			.hasValue(response.body().getBytes(StandardCharsets.UTF_8).length);
		assertThat(app.isActive()).isFalse();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> ProcessHandle.of(redisPid).filter(ProcessHandle::isAlive).isEmpty());
		assertThat(ChildProcesses.live()).as("no orphan processes").isEqualTo(childrenBefore);
		assertThat(listens(redisPort)).as("something still listens on the Redis port").isFalse();
	}

	@Test
	void whatARunStoppedByTheClosingAppWroteKeepsItsExpiry() throws Exception {
		try (StandaloneRedis redis = RedisTestServers.newStandalone();
				Admin admin = Admin.connect(redis.host(), redis.port())) {
			ConfigurableApplicationContext app = new SpringApplicationBuilder(PipeliningLabApplication.class).run(
					"--server.port=0", "--spring.main.banner-mode=off", "--spring.data.redis.host=" + redis.host(),
					"--spring.data.redis.port=" + redis.port());
			int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
			Http http = new Http(port, Duration.ofSeconds(120));
			// Pipelined, so hundreds of thousands of keys are written before the close:
			// their expiry takes longer than the rest of the shutdown.
			CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture
				.supplyAsync(() -> http.get("/pipeset/5000000?batchSize=" + BATCH));
			await().atMost(Duration.ofSeconds(60))
				.until(() -> admin.sync().exists("pipelining-lab:key:300000") == 1 || inFlight.isDone());
			assertThat(inFlight).as("still running when shutdown starts").isNotDone();

			app.close();

			assertThat(inFlight.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(503);
			// Every key the stopped run wrote, up to the last, carries the expiry.
			long written = 0;
			while (admin.sync().exists("pipelining-lab:key:" + written) == 1) {
				written += BATCH;
			}
			assertThat(written).as("keys written").isGreaterThan(300_000);
			for (long key = 0; key < written; key += 997) {
				assertThat(admin.sync().ttl("pipelining-lab:key:" + key)).as("TTL of key " + key).isPositive();
			}
			assertThat(admin.sync().ttl("pipelining-lab:key:" + (written - BATCH))).isPositive();
			// Redis' own count: the closing app's clean-up sent at most one command per
			// key
			// it wrote, plus the 10,000.
			assertThat(NodeStats.cleanupCalls(redis.process())).as("EXPIREs, UNLINKs and DELs")
				.isLessThanOrEqualTo(admin.sync().dbsize() + 10_000);
		}
	}

	private static boolean listens(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
