package dev.pipelininglab.reliability;

import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.web.AppOnTestRedis;
import jakarta.servlet.ServletContext;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Safe defaults, checked on the running app: it listens on loopback only, Actuator shows
 * nothing beyond health, info, metrics and prometheus, failures never carry stack traces
 * or exception class names, and no endpoint takes a key, command or script from the
 * request.
 */
class SecurityDefaultsTests extends AppOnTestRedis {

	private static final Set<String> EXPOSED = Set.of("health", "info", "metrics", "prometheus");

	private static final List<String> NOT_EXPOSED = List.of("env", "beans", "configprops", "heapdump", "threaddump",
			"loggers", "mappings", "conditions", "scheduledtasks", "caches", "startup", "sbom", "logfile",
			"httpexchanges", "auditevents", "sessions", "shutdown", "quartz", "integrationgraph");

	/**
	 * Words a request could use to smuggle in what the lab must never take from a client.
	 */
	private static final Set<String> FORBIDDEN_INPUTS = Set.of("key", "keys", "prefix", "keyprefix", "command",
			"commands", "script", "lua", "eval", "pattern", "match", "database", "db");

	@Autowired
	WebServerApplicationContext context;

	@Autowired
	Environment environment;

	@Autowired
	ServletContext servletContext;

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping mappings;

	@Test
	void listensOnLoopbackOnlyByDefault() {
		assertThat(this.environment.getProperty("server.address")).isEqualTo("127.0.0.1");
		TomcatWebServer server = (TomcatWebServer) this.context.getWebServer();
		Object address = server.getTomcat().getConnector().getProperty("address");
		assertThat(address).isInstanceOf(InetAddress.class);
		assertThat(((InetAddress) address).isLoopbackAddress()).isTrue();
	}

	/**
	 * On loopback nothing is asked and Spring Security is not in the request's way at
	 * all: no filter chain, nothing registered with the servlet container
	 * (ListenerSecurityTests: beyond loopback).
	 */
	@Test
	void onLoopbackNoSecurityFilterRunsAndARunNeedsNoCredentials() {
		assertThat(this.context.getBeansOfType(SecurityFilterChain.class)).isEmpty();
		assertThat(this.context.containsBean("springSecurityFilterChain")).isFalse();
		assertThat(this.servletContext.getFilterRegistrations().keySet())
			.noneMatch((filter) -> filter.toLowerCase(Locale.ROOT).contains("security"));
		HttpResponse<String> response = get("/pipeset/10");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.headers().firstValue("WWW-Authenticate")).isEmpty();
	}

	@Test
	void actuatorExposesOnlyHealthInfoMetricsAndPrometheus() throws Exception {
		HttpResponse<String> index = get("/actuator");
		assertThat(index.statusCode()).isEqualTo(200);
		Map<String, Object> links = JsonPath.read(index.body(), "$._links");
		assertThat(links.keySet()).allSatisfy((link) -> assertThat(link.replaceAll("-.*", ""))
			.isIn(Set.of("self", "health", "info", "metrics", "prometheus")));
		for (String endpoint : NOT_EXPOSED) {
			assertThat(get("/actuator/" + endpoint).statusCode()).as(endpoint).isEqualTo(404);
		}
		assertThat(send("POST", "/actuator/shutdown").statusCode()).isIn(404, 405);
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(JsonPath.<String>read(health.body(), "$.components.redis.status")).isEqualTo("UP");
		assertThat(health.body()).doesNotContain("details", "/work", "/tmp", "version");
		assertThat(EXPOSED).contains("prometheus");
	}

	@Test
	void failuresCarryNoStackTracesOrClassNames() throws Exception {
		RedisTestServers.standalone().flushAll();
		try (Admin admin = Admin.connect(RedisTestServers.standalone().host(), RedisTestServers.standalone().port())) {
			admin.sync().set("pipelining-lab:list", "not a list");
			List<HttpResponse<String>> failures = new ArrayList<>();
			for (String path : List.of("/pipeset/abc?trace=true", "/pipeset/-1?trace=on", "/nothing-here?trace=true",
					"/pipeset/10?batchSize=99999999999999", "/compare/%00/10", "/pipeset/10?sample=%27%22%3C",
					"/piperpop/10?trace=true", "/looprpop/10", "/listinput/10", "/pipeset/" + "9".repeat(400))) {
				failures.add(get(path));
			}
			failures.add(send("POST", "/pipeset/10"));
			failures.add(send("GET", "/keys"));
			failures.add(send("PUT", "/actuator/health"));
			for (HttpResponse<String> failure : failures) {
				String what = failure.request().method() + " " + failure.uri() + " -> " + failure.statusCode() + " "
						+ failure.body();
				assertThat(failure.statusCode()).as(what).isBetween(400, 499);
				// "trace" may be named as the unknown parameter it is; what must never
				// appear is a trace field.
				assertThat(failure.body()).as(what)
					.doesNotContain("Exception", "\tat ", "java.", "org.springframework", "io.lettuce", "\"trace\":");
			}
			admin.sync().del("pipelining-lab:list");
		}
	}

	@Test
	void noEndpointTakesAKeyCommandOrScriptFromTheRequest() {
		List<String> checked = new ArrayList<>();
		for (Map.Entry<RequestMappingInfo, HandlerMethod> mapping : this.mappings.getHandlerMethods().entrySet()) {
			HandlerMethod handler = mapping.getValue();
			if (!handler.getBeanType().getPackageName().startsWith("dev.pipelininglab")) {
				continue;
			}
			for (Parameter parameter : handler.getMethod().getParameters()) {
				checkInput(mapping.getKey() + " " + parameter.getName(), parameter.getName(), parameter.getType());
				checked.add(parameter.getName());
			}
		}
		assertThat(checked).contains("count", "op");
	}

	private static void checkInput(String where, String name, Class<?> type) {
		// The two load-shape inputs memtier names so carry no key: keys is a count (the
		// size of the key space) and pattern one word of a closed set (sequential,
		// uniform,
		// gaussian; anything else answers 400, KeyPatternTests).
		boolean keySpaceSize = name.equals("keys") && (type == Long.class || type == long.class);
		boolean keyWalk = name.equals("pattern") && type == String.class;
		if (keySpaceSize || keyWalk) {
			return;
		}
		assertThat(FORBIDDEN_INPUTS).as(where).doesNotContain(name.toLowerCase(Locale.ROOT));
		if (type.isRecord()) {
			for (RecordComponent component : type.getRecordComponents()) {
				checkInput(where + "." + component.getName(), component.getName(), component.getType());
			}
		}
	}

	private HttpResponse<String> get(String path) {
		return http().get(path);
	}

	private HttpResponse<String> send(String method, String path) {
		return http().send(method, path);
	}

}
