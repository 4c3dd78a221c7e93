package dev.pipelininglab.redis;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.spi.FilterReply;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce's reconnect attempts are dropped, one WARN per node and outage stands for them,
 * and one "Reconnected" per node says the outage is over.
 */
class ReconnectNoiseTests {

	private final LoggerContext context = new LoggerContext();

	private final Logger watchdog = this.context.getLogger("io.lettuce.core.protocol.ConnectionWatchdog");

	private final Logger reconnected = this.context.getLogger("io.lettuce.core.protocol.ReconnectionHandler");

	private final ReconnectNoise noise = new ReconnectNoise();

	/** The app's logging configuration installs it, and so does the tests'. */
	@ParameterizedTest
	@ValueSource(strings = { "/logback-spring.xml", "/logback-test.xml" })
	void theLoggingConfigurationInstallsIt(String file) throws JoranException {
		LoggerContext configured = new LoggerContext();
		JoranConfigurator configurator = new JoranConfigurator();
		configurator.setContext(configured);
		configurator.doConfigure(ReconnectNoiseTests.class.getResource(file));
		assertThat(configured.getTurboFilterList()).singleElement().isInstanceOf(ReconnectNoise.class);
	}

	@Test
	void readsTheNodeFromEveryWayLettuceWritesIt() {
		assertThat(ReconnectNoise.node("Reconnecting, last destination was /127.0.0.1:7379"))
			.isEqualTo("127.0.0.1:7379");
		assertThat(ReconnectNoise.node("Cannot reconnect to [127.0.0.1/<unresolved>:7379]: Connection refused"))
			.isEqualTo("127.0.0.1:7379");
		assertThat(ReconnectNoise.node("Unable to connect to [redis-1:6379]: timed out")).isEqualTo("redis-1:6379");
		assertThat(ReconnectNoise.node("Reconnecting")).isNull();
	}

	@Test
	void everyAttemptIsDroppedAndTheOutageEndsWithOneReconnectedLine() {
		RuntimeException refused = new RedisConnectionException("Connection refused");
		for (int attempt = 0; attempt < 5; attempt++) {
			assertThat(decide(this.watchdog, Level.INFO, "Reconnecting, last destination was {}", "/127.0.0.1:7379"))
				.isEqualTo(FilterReply.DENY);
			assertThat(this.noise.decide(null, this.watchdog, Level.WARN, "Cannot reconnect to [{}]: {}",
					new Object[] { "127.0.0.1/<unresolved>:7379", "Connection refused" }, refused))
				.isEqualTo(FilterReply.DENY);
		}
		assertThat(decide(this.reconnected, Level.INFO, "Reconnected to {}, Channel {}", "127.0.0.1:7379"))
			.isEqualTo(FilterReply.NEUTRAL);
		// Another pooled connection to the same node coming back says nothing new.
		assertThat(decide(this.reconnected, Level.INFO, "Reconnected to {}, Channel {}", "127.0.0.1:7379"))
			.isEqualTo(FilterReply.DENY);
		// Other loggers are not touched.
		assertThat(decide(this.context.getLogger("dev.pipelininglab.web.problem.ProblemAdvice"), Level.WARN,
				"Run failed at {}", "127.0.0.1:7379"))
			.isEqualTo(FilterReply.NEUTRAL);
	}

	private FilterReply decide(Logger logger, Level level, String format, Object param) {
		return this.noise.decide(null, logger, level, format, new Object[] { param, "[id: 0x1]" }, null);
	}

}
