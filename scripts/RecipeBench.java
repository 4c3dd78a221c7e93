package com.example.redis;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.TimeoutOptions;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Profile;

/**
 * The take-home pipelined recipe ({@code src/main/resources/recipes/PipelinedRecipe.java})
 * bare: a Spring Boot context with nothing but Boot's auto-configuration and the recipe,
 * no web server and nothing of the lab. scripts/recipe_pair.py compiles it beside the
 * recipe against the app jar's own libraries and drives it over stdin: each line is a
 * count of SETs to send with {@code PipelinedStore.setAll}, answered {@code ops <ops/s>}
 * from the wall time of making the lab's keys and values and sending them.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(PipelinedRecipe.class)
public class RecipeBench {

	/**
	 * Entries per setAll call: the lab makes each item's key and value inside its timed
	 * pass, batch by batch, so these are made inside the clock too, a few batches at a
	 * time, rather than a million held live (and copied by every young collection) for the
	 * whole call.
	 */
	static final int CHUNK = 10 * PipelinedRecipe.BATCH_SIZE;

	/**
	 * With the profile {@code lab-client}: the client options the lab sets
	 * ({@code redis/RedisConfiguration}, listed by {@code redis/ClientSettings}); the
	 * script passes the lab's properties beside it.
	 */
	@Configuration(proxyBeanMethods = false)
	@Profile("lab-client")
	static class LabClient {

		@Bean
		LettuceClientOptionsBuilderCustomizer labClientOptions() {
			return (options) -> options.disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS)
				.timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
				.useHashIndexQueue(false);
		}

	}

	public static void main(String[] args) throws Exception {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RecipeBench.class)
			.web(WebApplicationType.NONE)
			.run(args)) {
			PipelinedRecipe.PipelinedStore store = context.getBean(PipelinedRecipe.PipelinedStore.class);
			BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
			System.out.println("ready");
			for (String line = in.readLine(); line != null; line = in.readLine()) {
				int count = Integer.parseInt(line.trim());
				long start = System.nanoTime();
				for (int from = 0; from < count; from += CHUNK) {
					Map<String, String> entries = new LinkedHashMap<>();
					for (int i = from; i < Math.min(from + CHUNK, count); i++) {
						entries.put("pipelining-lab:key:" + i, "value-" + i);
					}
					store.setAll(entries);
				}
				long elapsed = System.nanoTime() - start;
				System.out.println("ops " + (count * 1e9 / elapsed));
			}
		}
	}

}
