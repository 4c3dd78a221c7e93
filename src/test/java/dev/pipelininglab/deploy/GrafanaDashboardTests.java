package dev.pipelininglab.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * deploy/grafana: the dashboard is one Grafana can load (a uid, a title, panels on the
 * 24-column grid with unique ids, each query with a unique refId and an expression on the
 * data source Grafana is provisioned with, variables that exist), and the provisioning
 * files point where Compose mounts them. That every metric it queries is one the app
 * exports: {@link DeploymentTests}.
 */
class GrafanaDashboardTests {

	static final Path DASHBOARD = Path.of("deploy/grafana/dashboards/pipelining-lab.json");

	private static final Set<String> PANEL_TYPES = Set.of("timeseries", "stat", "gauge", "table", "bargauge", "text");

	@Test
	void dashboardHasTheStructureGrafanaLoads() throws IOException {
		JsonNode dashboard = read();
		assertThat(dashboard.path("uid").asString()).matches("[a-zA-Z0-9_-]{1,40}");
		assertThat(dashboard.path("title").asString()).isNotBlank();
		assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
		assertThat(dashboard.has("id")).as("no id: Grafana gives one when it provisions the file").isFalse();
		Set<Integer> ids = new HashSet<>();
		Set<String> variables = new HashSet<>();
		dashboard.path("templating")
			.path("list")
			.forEach((variable) -> variables.add(variable.path("name").asString()));
		String datasource = provisionedDatasourceUid();
		JsonNode panels = dashboard.path("panels");
		assertThat(panels.size()).isGreaterThanOrEqualTo(6);
		for (JsonNode panel : panels) {
			String title = panel.path("title").asString();
			assertThat(title).isNotBlank();
			assertThat(ids.add(panel.path("id").asInt())).as("unique id of %s", title).isTrue();
			assertThat(panel.path("type").asString()).as(title).isIn(PANEL_TYPES);
			JsonNode grid = panel.path("gridPos");
			assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("%s within 24 columns", title)
				.isBetween(1, 24);
			assertThat(grid.path("h").asInt()).as(title).isPositive();
			assertThat(panel.path("datasource").path("uid").asString()).as(title).isEqualTo(datasource);
			Set<String> refIds = new HashSet<>();
			assertThat(panel.path("targets").size()).as(title).isPositive();
			for (JsonNode target : panel.path("targets")) {
				assertThat(refIds.add(target.path("refId").asString())).as("unique refId in %s", title).isTrue();
				String expression = target.path("expr").asString();
				assertThat(PromQl.metricNames(expression)).as("metrics of %s", expression).isNotEmpty();
				assertThat(variablesUsed(expression)).as(expression).isSubsetOf(variables);
			}
		}
	}

	/** Runs, passes and throughput by variant, pass times, readiness, HTTP answers. */
	@Test
	void dashboardShowsRunsVariantsThroughputAndRedisReadiness() throws IOException {
		assertThat(metricNames()).contains("lab_run_pass_seconds_count", "lab_run_pass_seconds_sum",
				"lab_run_pass_seconds_max", "lab_run_commands_total", "lab_health_ready",
				"http_server_requests_seconds_count");
	}

	@Test
	void provisioningPointsWhereComposeMountsIt() throws IOException {
		String provider = Files.readString(Path.of("deploy/grafana/provisioning/dashboards/pipelining-lab.yml"));
		assertThat(provider).contains("path: /var/lib/grafana/dashboards");
		assertThat(Files.readString(Path.of("docker-compose.yml")))
			.contains("./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro")
			.contains("./deploy/grafana/provisioning:/etc/grafana/provisioning:ro");
		assertThat(Files.readString(Path.of("deploy/grafana/provisioning/datasources/prometheus.yml")))
			.contains("url: http://prometheus:9090");
	}

	/** Every metric name the dashboard's queries and variables read. */
	static Set<String> metricNames() throws IOException {
		Set<String> names = new LinkedHashSet<>();
		JsonNode dashboard = read();
		for (JsonNode panel : dashboard.path("panels")) {
			for (JsonNode target : panel.path("targets")) {
				names.addAll(PromQl.metricNames(target.path("expr").asString()));
			}
		}
		for (JsonNode variable : dashboard.path("templating").path("list")) {
			String query = variable.path("query").path("query").asString();
			// Grafana's label_values(metric, label): the metric is the first argument.
			if (query.startsWith("label_values(")) {
				names.add(query.substring("label_values(".length()).split("[,)]")[0].trim());
			}
		}
		return names;
	}

	private static Set<String> variablesUsed(String expression) {
		Set<String> used = new HashSet<>();
		java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("\\$([a-zA-Z_]+)").matcher(expression);
		while (matcher.find()) {
			if (!matcher.group(1).startsWith("__")) {
				used.add(matcher.group(1));
			}
		}
		return used;
	}

	@SuppressWarnings("unchecked")
	private static String provisionedDatasourceUid() throws IOException {
		Map<String, Object> file = new org.yaml.snakeyaml.Yaml()
			.load(Files.readString(Path.of("deploy/grafana/provisioning/datasources/prometheus.yml")));
		List<Map<String, Object>> sources = (List<Map<String, Object>>) file.get("datasources");
		assertThat(sources).singleElement()
			.satisfies((source) -> assertThat(source).containsEntry("type", "prometheus"));
		return String.valueOf(sources.get(0).get("uid"));
	}

	private static JsonNode read() throws IOException {
		return JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
	}

}
