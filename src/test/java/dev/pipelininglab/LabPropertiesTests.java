package dev.pipelininglab;

import java.util.List;

import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.config.LabProperties;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeyProperties;
import dev.pipelininglab.redis.PipelineProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lab's settings ({@code lab.*}, one record beside each feature that reads them) are
 * checked when the app starts, with a message that says what to fix.
 */
class LabPropertiesTests {

	private final ApplicationContextRunner runner = SettingsRunner.validating(Enable.class);

	@Test
	void defaultsAreUsable() {
		this.runner.run((context) -> {
			assertThat(context.getBean(KeyProperties.class).keyPrefix()).isEqualTo("pipelining-lab");
			assertThat(context.getBean(LimitProperties.class).maxCount()).isEqualTo(10_000_000);
			assertThat(context.getBean(LimitProperties.class).defaultBatchSize()).isEqualTo(10_000);
			assertThat(context.getBean(PipelineProperties.class).flushPolicy()).isEqualTo(FlushPolicy.buffered(500));
			assertThat(context.getBean(LabProperties.class).localRedis().enabled()).isTrue();
		});
	}

	@Test
	void flushPolicyIsReadFromItsWrittenForm() {
		this.runner.withPropertyValues("lab.pipeline.flush-policy=buffered-1000")
			.run((context) -> assertThat(context.getBean(PipelineProperties.class).flushPolicy())
				.isEqualTo(FlushPolicy.buffered(1000)));
	}

	@Test
	void unknownFlushPolicyFailsStartUpNamingTheAcceptedForms() {
		this.runner.withPropertyValues("lab.pipeline.flush-policy=sometimes")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Unknown flush policy 'sometimes'")
				.hasMessageContaining("buffered-<n>"));
	}

	@Test
	void bufferedWithoutSizeFailsStartUp() {
		this.runner.withPropertyValues("lab.pipeline.flush-policy=buffered-0")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void prefixWithGlobCharactersFailsStartUp() {
		SettingsRunner.assertStartUpFails(this.runner, List.of("lab.key-prefix=demo*"), "keyPrefix",
				"no glob characters");
	}

	@Test
	void defaultBatchAboveTheMaximumFailsStartUp() {
		SettingsRunner.assertStartUpFails(this.runner,
				List.of("lab.limits.default-batch-size=5000", "lab.limits.max-batch-size=1000"),
				"must not exceed lab.limits.max-batch-size");
	}

	@Configuration(proxyBeanMethods = false)
	@Import(LabConfiguration.class)
	static class Enable {

	}

}
