package dev.pipelininglab.metrics;

import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.Specs;
import dev.pipelininglab.run.WarmUpProperties;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SharedRedis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.redis.autoconfigure.ClientResourcesBuilderCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code lab.metrics.command-latency=true}, Lettuce times every command into the
 * app's meter registry.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "lab.metrics.command-latency=true")
@SharedRedis
class CommandLatencyMetricsTests {

	@Autowired
	RunService runs;

	@Autowired
	MeterRegistry meters;

	@Autowired
	WarmUpProperties warmUp;

	/** They slow pipelined runs, so an app has them only when asked. */
	@Test
	void theTimersAreThereOnlyWhenAskedFor() {
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withUserConfiguration(CommandLatencyConfiguration.class)
			.withBean(SimpleMeterRegistry.class);
		runner.run((context) -> assertThat(context).doesNotHaveBean(ClientResourcesBuilderCustomizer.class));
		runner.withPropertyValues("lab.metrics.command-latency=true")
			.run((context) -> assertThat(context).hasSingleBean(ClientResourcesBuilderCustomizer.class));
	}

	@Test
	void everyPipelinedCommandIsTimed() {
		RedisTestServers.standalone().flushAll();
		this.runs.run(Specs.of(Operation.SET, Mode.PIPELINED, FlushPolicy.FLUSH_ON_CLOSE, 2000, 500, 0),
				RunObserver.NONE);
		Timer completion = this.meters.find("lettuce.command.completion").tag("command", "SET").timer();
		assertThat(completion).isNotNull();
		// The warm-up pass and the timed pass, each SET once.
		assertThat(completion.count()).isGreaterThanOrEqualTo(2000 + Math.min(2000, this.warmUp.items()));
		assertThat(this.meters.find("lettuce.command.firstresponse").tag("command", "SET").timer()).isNotNull();
	}

}
