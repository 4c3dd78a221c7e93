package dev.pipelininglab.reliability;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Redis over TLS with a certificate made by the test: the app connects through Boot's
 * standard {@code spring.data.redis.ssl.enabled} and a PEM SSL bundle that trusts that
 * certificate, and runs work. The server also listens in plain text on another port, only
 * so the test can look at who is connected where; the app is only given the TLS port,
 * where a plain-text client gets nothing. Skipped, saying why, on a redis-server built
 * without TLS (such as the bundled 6.2 binary).
 */
@SlowTest
class RedisTlsTests {

	@TempDir
	static Path dir;

	static RedisServerProcess redis;

	static int tlsPort;

	static SelfSignedCertificate certificate;

	private static String noTls;

	@BeforeEach
	void needsTls() {
		assumeTrue(noTls == null, noTls);
	}

	@BeforeAll
	static void tlsRedis() throws Exception {
		certificate = SelfSignedCertificate.create(dir);
		tlsPort = RedisServerProcess.freePort();
		try {
			redis = RedisServerProcess.builder(RedisTestServers.binary(), RedisServerProcess.freePort(), dir)
				.args("--tls-port", Integer.toString(tlsPort), "--tls-cert-file", certificate.certificate().toString(),
						"--tls-key-file", certificate.privateKey().toString(), "--tls-ca-cert-file",
						certificate.certificate().toString(), "--tls-auth-clients", "no")
				.start();
		}
		catch (IllegalStateException ex) {
			// A build without TLS rejects the tls-* options while reading its
			// configuration and exits.
			// Assumed in @BeforeEach: failed in @BeforeAll, the class's tests would be
			// counted neither run nor skipped.
			noTls = "redis-server " + RedisTestServers.binary() + " was built without TLS support: "
					+ ex.getMessage().lines().filter((line) -> line.contains("tls")).findFirst().orElse("");
		}
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.stop();
		}
	}

	@Test
	void runsWorkOverTlsWithAnSslBundle() {
		try (Admin admin = Admin.connect(redis.host(), redis.port());
				RunningApp app = RunningApp.start("spring.data.redis.host=127.0.0.1",
						"spring.data.redis.port=" + tlsPort, "spring.data.redis.ssl.enabled=true",
						"spring.data.redis.ssl.bundle=redis",
						"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + certificate.certificate())) {
			for (String path : List.of("/pipeset/5000", "/loopset/100", "/pipeget/5000", "/listinput/100",
					"/piperpop/100", "/compare/get/1000", "/actuator/health")) {
				HttpResponse<String> response = app.get(path);
				assertThat(response.statusCode()).as(path + " " + response.body()).isEqualTo(200);
			}
			assertThat(JsonPath.<Integer>read(app.get("/pipeset/5000").body(), "$.verified")).isEqualTo(5000);
			assertThat(admin.sync().get("pipelining-lab:key:4999")).isEqualTo("value-4999");
			// Every client but this one came in through the TLS port.
			List<String> appClients = admin.sync()
				.clientList()
				.lines()
				.filter((line) -> !line.contains(" cmd=client"))
				.toList();
			assertThat(appClients).isNotEmpty().allSatisfy((line) -> assertThat(line).contains(":" + tlsPort + " "));
		}
	}

	@Test
	void anUntrustedServerCertificateIsRefused() throws Exception {
		SelfSignedCertificate stranger = SelfSignedCertificate
			.create(java.nio.file.Files.createDirectories(dir.resolve("stranger")));
		try (RunningApp app = RunningApp.start("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + tlsPort,
				"spring.data.redis.ssl.enabled=true", "spring.data.redis.ssl.bundle=stranger",
				"spring.ssl.bundle.pem.stranger.truststore.certificate=file:" + stranger.certificate())) {
			HttpResponse<String> response = app.get("/pipeset/10");
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(JsonPath.<String>read(response.body(), "$.type"))
				.isEqualTo("urn:pipelining-lab:problem:redis-unavailable");
		}
	}

}
