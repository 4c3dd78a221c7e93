package dev.pipelininglab.metrics;

import java.net.http.HttpResponse;

import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.AppOnTestRedis;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Actuator shows exactly health, info, metrics and prometheus; health covers Redis; runs
 * appear as timers per operation, mode and variant; Lettuce's per-command timers stay off
 * unless asked for.
 */
@SlowTest
class ObservabilityTests extends AppOnTestRedis {

	@Autowired
	JsonMapper json;

	@Test
	void actuatorExposesExactlyHealthInfoMetricsAndPrometheus() throws Exception {
		JsonNode links = this.json.readTree(get("/actuator").body()).get("_links");
		assertThat(links.propertyNames()).containsExactlyInAnyOrder("self", "health", "health-path", "info", "metrics",
				"metrics-requiredMetricName", "prometheus");
		for (String hidden : new String[] { "/actuator/env", "/actuator/beans", "/actuator/configprops",
				"/actuator/heapdump", "/actuator/loggers" }) {
			assertThat(get(hidden).statusCode()).as(hidden).isEqualTo(404);
		}
		JsonNode health = this.json.readTree(get("/actuator/health").body());
		assertThat(health.at("/status").asString()).isEqualTo("UP");
		assertThat(health.at("/components/redis/status").asString()).isEqualTo("UP");
	}

	@Test
	void runsAreTimedPerOperationModeAndVariant() throws Exception {
		String loopGet = "lab_run_pass_seconds_count{mode=\"loop\",operation=\"get\",variant=\"loop\"}";
		String multiKeyGet = "lab_run_pass_seconds_count{mode=\"multi-key\",operation=\"get\",variant=\"multi-key\"}";
		String multiKeyCommands = "lab_run_commands_total{mode=\"multi-key\",operation=\"get\",variant=\"multi-key\"}";
		// Other tests share this app, so counts are compared before and after.
		String before = get("/actuator/prometheus").body();
		assertThat(get("/pipeset/1000").statusCode()).isEqualTo(200);
		assertThat(get("/compare/get/500?variants=loop,multi-key&repeat=3").statusCode()).isEqualTo(200);
		String after = get("/actuator/prometheus").body();
		assertThat(after).contains(
				"lab_run_pass_seconds_count{mode=\"pipelined\",operation=\"set\",variant=\"pipelined-buffered\"}");
		assertThat(value(after, loopGet) - value(before, loopGet)).as("one timing per pass").isEqualTo(3);
		assertThat(value(after, multiKeyGet) - value(before, multiKeyGet)).isEqualTo(3);
		assertThat(value(after, multiKeyCommands) - value(before, multiKeyCommands)).isEqualTo(1500);
		assertThat(after).as("Lettuce command latency is off by default").doesNotContain("lettuce_command");
	}

	/**
	 * A request chooses its buffer size, not the number of series: every
	 * {@code buffered-<n>} is one {@code pipelined-buffered} series.
	 */
	@Test
	void requestValuesDoNotAddMetricSeries() {
		for (int size = 2; size <= 41; size++) {
			assertThat(get("/pipeping/1?flushPolicy=buffered-" + size).statusCode()).isEqualTo(200);
		}
		long series = get("/actuator/prometheus").body()
			.lines()
			.filter((line) -> line.startsWith("lab_run_pass_seconds_count{") && line.contains("operation=\"ping\""))
			.count();
		assertThat(series).as("ping series after 40 buffer sizes").isLessThanOrEqualTo(3);
		assertThat(get("/actuator/prometheus").body()).doesNotContain("buffered-41");
	}

	/** The value of one series in a Prometheus scrape, 0 when it is not there yet. */
	private static double value(String scrape, String series) {
		return scrape.lines()
			.filter((line) -> line.startsWith(series + " "))
			.mapToDouble((line) -> Double.parseDouble(line.substring(series.length() + 1).trim()))
			.findFirst()
			.orElse(0);
	}

	private HttpResponse<String> get(String path) {
		return http().get(path);
	}

}
