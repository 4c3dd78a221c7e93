package dev.pipelininglab;

import java.util.List;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Binds the lab's settings records in a context of their own, validated as the app
 * validates them, for the tests that check their defaults and the start-ups they refuse.
 */
public final class SettingsRunner {

	private SettingsRunner() {
	}

	/**
	 * A runner for the settings {@code configuration} enables (with
	 * {@code @EnableConfigurationProperties}).
	 */
	public static ApplicationContextRunner validating(Class<?> configuration) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
			.withUserConfiguration(configuration);
	}

	/**
	 * Start-up with {@code properties} fails, and its failure says each of
	 * {@code messages}.
	 */
	public static void assertStartUpFails(ApplicationContextRunner runner, List<String> properties,
			String... messages) {
		runner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
			assertThat(context).hasFailed();
			for (String message : messages) {
				assertThat(context).getFailure().hasStackTraceContaining(message);
			}
		});
	}

}
