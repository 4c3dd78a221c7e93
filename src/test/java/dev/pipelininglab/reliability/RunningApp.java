package dev.pipelininglab.reliability;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.testsupport.Http;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application started as {@code main} starts it, on a free port, talked to over real
 * HTTP; for tests that need the whole life of the app (its startup and shutdown logs, a
 * second configuration) inside one test method.
 */
final class RunningApp implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final Http http;

	/** Everything the app answered, for checks over all responses at once. */
	private final List<String> answers = new ArrayList<>();

	private RunningApp(ConfigurableApplicationContext context) {
		this.context = context;
		this.http = new Http(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")),
				Duration.ofSeconds(60));
	}

	static RunningApp start(String... properties) {
		// Command-line arguments, since builder properties are defaults that
		// application.yml would override.
		List<String> args = new ArrayList<>(
				List.of("--server.port=0", "--spring.main.banner-mode=off", "--lab.local-redis.enabled=false"));
		List.of(properties).forEach((property) -> args.add("--" + property));
		return new RunningApp(
				new SpringApplicationBuilder(PipeliningLabApplication.class).run(args.toArray(new String[0])));
	}

	HttpResponse<String> get(String path) {
		return send("GET", path);
	}

	/**
	 * The client itself, for requests with headers of their own (credentials, Origin).
	 */
	Http http() {
		return this.http;
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	HttpResponse<String> send(String method, String path) {
		HttpResponse<String> response = this.http.send(method, path);
		synchronized (this.answers) {
			this.answers.add(method + " " + path + " -> " + response.statusCode() + " " + response.headers().map() + " "
					+ response.body());
		}
		return response;
	}

	List<String> answers() {
		synchronized (this.answers) {
			return List.copyOf(this.answers);
		}
	}

	@Override
	public void close() {
		this.context.close();
	}

}
