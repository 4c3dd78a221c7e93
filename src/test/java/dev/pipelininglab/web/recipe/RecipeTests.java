package dev.pipelininglab.web.recipe;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.AppOnTestRedis;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.testsupport.ClusterRedis;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SpringRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recipes are code that works: each variant's recipe, as {@code GET /recipes} serves
 * it (batch size and flush policy filled in), is compiled with the JDK's compiler against
 * the test classpath, started in a Spring Boot context with Spring Boot's own Redis
 * auto-configuration, and made to write and read keys on a real redis-server (the
 * cluster-capable ones on a real cluster too); what it wrote is read back with a client
 * of the test's own.
 */
@SlowTest
class RecipeTests extends AppOnTestRedis {

	/** Enough keys for several batches of {@link #BATCH}, and a last short one. */
	private static final int KEYS = 53;

	private static final int BATCH = 7;

	@Autowired
	JsonMapper json;

	@TempDir
	Path work;

	private static final JavaCompiler JAVAC = ToolProvider.getSystemJavaCompiler();

	/**
	 * One file manager for every compile of the class: it keeps the class path's jars
	 * open and indexed, which a new one per recipe read again each time.
	 */
	private static final StandardJavaFileManager FILES = JAVAC.getStandardFileManager(null, null,
			StandardCharsets.UTF_8);

	@AfterAll
	static void closeTheFileManager() throws IOException {
		FILES.close();
	}

	/** The flush policy each compiled recipe was served with, by class. */
	private final Map<Class<?>, String> servedPolicies = new java.util.HashMap<>();

	/** Every variant the lab runs, as {@code variants=} writes it. */
	static Stream<String> variants() {
		List<String> labels = new ArrayList<>(
				List.of("pipelined", "pipelined-flush-each-command", "pipelined-flush-on-close", "pipelined-buffered-3",
						"pipelined-buffered-500-per-flush", "pipelined-flush-on-close-per-command", "async-per-flush"));
		for (Mode mode : Mode.values()) {
			if (mode == Mode.PIPELINED_BY_NODE) {
				// Cluster only: on the cluster below.
				continue;
			}
			labels.add(mode.label());
			// The modes Jedis has no counterpart for (the lab skips them too).
			if (mode != Mode.ASYNC && mode != Mode.REACTIVE && mode != Mode.PIPELINED_TRANSACTION) {
				labels.add(Connector.JEDIS.label() + "-" + mode.label());
			}
		}
		return labels.stream().distinct();
	}

	@ParameterizedTest
	@MethodSource("variants")
	void everyVariantsRecipeCompilesAndWritesAndReadsOnRedis(String variant) throws Exception {
		StandaloneRedis redis = RedisTestServers.standalone();
		redis.flushAll();
		Class<?> recipe = compile(variant);
		List<String> keys = keys(recipe, "recipe:" + variant);
		runRecipe(recipe, redis, variant.startsWith("jedis-"), this.servedPolicies.get(recipe), keys, (written) -> {
			try (StatefulRedisConnection<String, String> check = dev.pipelininglab.testsupport.TestLettuce.client()
				.connect(RedisURI.create(redis.host(), redis.port()))) {
				for (Map.Entry<String, String> entry : written.entrySet()) {
					assertThat(check.sync().get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
				}
			}
		});
	}

	/**
	 * The recipes that can batch on a cluster do; the script (keys of one slot only) and
	 * Jedis pipelines (refused by Spring Data Redis on a cluster) say so in their catch.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "loop", "pipelined-buffered-3", "pipelined-flush-on-close", "multi-key",
			"multi-key-hashtag", "pipelined-by-node" })
	void theClusterCapableRecipesWriteAndReadOnARealCluster(String variant) throws Exception {
		ClusterRedis cluster = RedisTestServers.cluster();
		cluster.flushAll();
		Class<?> recipe = compile(variant);
		List<String> keys = keys(recipe, "recipe:" + variant);
		runRecipe(recipe, cluster, false, this.servedPolicies.get(recipe), keys, (written) -> {
			RedisClusterClient client = RedisClusterClient
				.create(cluster.ports().stream().map((port) -> RedisURI.create("127.0.0.1", port)).toList());
			try (StatefulRedisClusterConnection<String, String> check = client.connect()) {
				for (Map.Entry<String, String> entry : written.entrySet()) {
					assertThat(check.sync().get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
				}
				if (variant.equals("multi-key-hashtag")) {
					assertThat(written.keySet().stream().map((key) -> check.sync().clusterKeyslot(key)).distinct())
						.as("one slot for every key of the tag")
						.hasSize(1);
				}
			}
			finally {
				client.shutdown();
			}
		});
	}

	@Test
	void theJsonAnswerFillsInTheBatchSizeAndFlushPolicyAndQuotesCostAndCatchFromTheFile() throws Exception {
		HttpResponse<String> answer = http().get("/recipes/pipelined-flush-on-close?batchSize=250", "application/json");
		assertThat(answer.statusCode()).isEqualTo(200);
		JsonNode recipe = this.json.readTree(answer.body());
		assertThat(recipe.path("variant").asString()).isEqualTo("pipelined-flush-on-close");
		assertThat(recipe.path("recipe").asString()).isEqualTo("PipelinedRecipe");
		assertThat(recipe.path("batchSize").asInt()).isEqualTo(250);
		assertThat(recipe.path("flushPolicy").asString()).isEqualTo("flush-on-close");
		assertThat(recipe.path("cost").asString()).startsWith("one round trip per batch").doesNotContain(" * ");
		assertThat(recipe.path("catch").asString())
			.startsWith("the flush policy is set on the connection factory, so it applies to every pipeline of every"
					+ " template on that factory")
			.contains("not atomic");
		assertThat(recipe.path("source").asString()).contains("static final int BATCH_SIZE = 250;")
			.contains("PipeliningFlushPolicy.flushOnClose()")
			.doesNotContain("buffered(500)");
		String template = Files.readString(Path.of(recipe.path("path").asString()));
		assertThat(template).contains(Recipes.FLUSH_POLICY);
		assertThat(recipe.has("note")).isFalse();
		assertThat(recipe.has("properties")).isFalse();

		JsonNode loop = this.json.readTree(http().get("/recipes/jedis-loop", "application/json").body());
		assertThat(loop.has("batchSize")).as("a loop has no batches").isFalse();
		assertThat(loop.path("properties").asString()).isEqualTo("spring.data.redis.client-type=jedis");

		JsonNode perFlush = this.json
			.readTree(http().get("/recipes/pipelined-buffered-500-per-flush", "application/json").body());
		assertThat(perFlush.path("note").asString()).contains("BatchWritingEndpoint");
		assertThat(perFlush.path("batchSize").asInt()).as("the lab's default batch size").isEqualTo(10_000);
	}

	@Test
	void theRecipesSayTheirCatchesAndSetNothingThatIsTheDefaultAlready() throws Exception {
		JsonNode multiKey = this.json.readTree(http().get("/recipes/multi-key", "application/json").body());
		assertThat(multiKey.path("catch").asString()).startsWith("MSET cannot set an expiry");

		JsonNode eachCommand = this.json
			.readTree(http().get("/recipes/pipelined-flush-each-command", "application/json").body());
		assertThat(eachCommand.path("flushPolicy").asString()).isEqualTo("flush-each-command");
		assertThat(eachCommand.path("source").asString())
			.doesNotContain("import org.springframework.beans.factory.config.BeanPostProcessor;",
					"setPipeliningFlushPolicy", "static BeanPostProcessor")
			.contains("No flush policy to set: flushEachCommand() is Spring Data Redis' default");

		// This lab runs on a standalone Redis: the cluster-only recipes say so.
		for (String clusterOnly : List.of("pipelined-by-node", "transaction-hashtag", "multi-key-hashtag")) {
			JsonNode recipe = this.json.readTree(http().get("/recipes/" + clusterOnly, "application/json").body());
			assertThat(recipe.path("note").asString()).as(clusterOnly)
				.startsWith("Cluster only: " + clusterOnly + " is ")
				.contains("This lab is connected to a standalone Redis, where it does not run");
		}
		assertThat(this.json.readTree(http().get("/recipes/pipelined", "application/json").body()).has("note"))
			.isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "jedis-async", "jedis-reactive", "jedis-pipelined-transaction" })
	void aVariantThatRunsOnNoTopologyHasNoRecipe(String variant) throws Exception {
		HttpResponse<String> answer = http().get("/recipes/" + variant, "application/json");
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(404);
		assertThat(answer.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
		JsonNode problem = this.json.readTree(answer.body());
		assertThat(problem.path("type").asString()).isEqualTo("urn:pipelining-lab:problem:recipe-not-found");
		assertThat(problem.path("detail").asString()).startsWith("It runs on no topology").contains("Jedis");
	}

	@Test
	void textPlainIsTheJavaFileAndTheTemplatesOnDiskAreWhatTheAppServes() throws Exception {
		for (Recipes.File file : Recipes.File.values()) {
			String onDisk = Files.readString(Path.of(file.path()));
			assertThat(onDisk).as(file.path()).contains("Cost: ", "Catch: ", "public class " + file.className);
			if (file != Recipes.File.LOOP) {
				assertThat(Recipes.BATCH_SIZE.matcher(onDisk).results()).as(file.path()).hasSize(1);
			}
		}
		HttpResponse<String> text = http().get("/recipes/loop", "text/plain");
		assertThat(text.statusCode()).isEqualTo(200);
		assertThat(text.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/plain"));
		assertThat(text.body()).isEqualTo(Files.readString(Path.of(Recipes.File.LOOP.path())));
	}

	@Test
	void anUnknownVariantOrBatchSizeIsAProblemNamingTheParameter() throws Exception {
		HttpResponse<String> unknown = http().get("/recipes/pipe", null);
		assertThat(unknown.statusCode()).isEqualTo(400);
		assertThat(this.json.readTree(unknown.body()).path("parameter").asString()).isEqualTo("variant");
		HttpResponse<String> zero = http().get("/recipes/loop?batchSize=0", null);
		assertThat(zero.statusCode()).isEqualTo(400);
		assertThat(this.json.readTree(zero.body()).path("parameter").asString()).isEqualTo("batchSize");
		HttpResponse<String> other = http().get("/recipes/loop?count=5", null);
		assertThat(other.statusCode()).isEqualTo(400);
		JsonNode index = this.json.readTree(http().get("/", "application/json").body());
		assertThat(index.path("endpoints").findValuesAsString("path")).contains("/recipes/{variant}");
	}

	/** The recipe as the app serves it, compiled into a directory of its own. */
	private Class<?> compile(String variant) throws Exception {
		HttpResponse<String> answer = http().get("/recipes/" + variant + "?batchSize=" + BATCH, "application/json");
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		JsonNode recipe = this.json.readTree(answer.body());
		String className = recipe.path("recipe").asString();
		Path dir = Files.createDirectories(this.work.resolve(variant));
		Path source = dir.resolve(className + ".java");
		Files.writeString(source, recipe.path("source").asString());
		java.io.StringWriter errors = new java.io.StringWriter();
		boolean compiled = JAVAC
			.getTask(errors, FILES, null,
					List.of("-classpath", System.getProperty("java.class.path"), "-d", dir.toString(), "-proc:none"),
					null, FILES.getJavaFileObjects(source.toFile()))
			.call();
		assertThat(compiled).as(variant + ": " + errors).isTrue();
		URLClassLoader loader = new URLClassLoader(new URL[] { dir.toUri().toURL() }, getClass().getClassLoader());
		Class<?> compiledRecipe = loader.loadClass("com.example.redis." + className);
		if (recipe.hasNonNull("flushPolicy")) {
			this.servedPolicies.put(compiledRecipe, recipe.path("flushPolicy").asString());
		}
		return compiledRecipe;
	}

	/**
	 * The factory's flush policy in the lab's words, from the state it gives each new
	 * pipeline (Spring Data Redis has no getter for it).
	 */
	private static String flushState(LettuceConnectionFactory factory) throws Exception {
		Object policy = new org.springframework.beans.DirectFieldAccessor(factory)
			.getPropertyValue("pipeliningFlushPolicy");
		Method newPipeline = Class.forName(LettuceConnection.class.getName() + "$PipeliningFlushPolicy")
			.getMethod("newPipeline");
		Object state = newPipeline.invoke(policy);
		return switch (state.getClass().getSimpleName()) {
			case "FlushEachCommand" -> "flush-each-command";
			case "FlushOnClose" -> "flush-on-close";
			case "BufferedFlushing" ->
				"buffered-" + new org.springframework.beans.DirectFieldAccessor(state).getPropertyValue("flushAfter");
			default -> state.getClass().getName();
		};
	}

	/** Keys for the recipe: in one hash tag for the hash-tag recipe, as it asks. */
	private static List<String> keys(Class<?> recipe, String prefix) throws Exception {
		List<String> keys = new ArrayList<>();
		Method tagged = Stream.of(recipe.getMethods())
			.filter((m) -> m.getName().equals("key"))
			.findFirst()
			.orElse(null);
		for (int i = 0; i < KEYS; i++) {
			keys.add((tagged != null) ? (String) tagged.invoke(null, prefix, "key:" + i) : prefix + ":key:" + i);
		}
		return keys;
	}

	private static void runRecipe(Class<?> recipe, SpringRedis redis, boolean jedis, String flushPolicy,
			List<String> keys, java.util.function.Consumer<Map<String, String>> check) {
		List<String> properties = new ArrayList<>();
		redis.springProperties().forEach((name, value) -> properties.add(name + "=" + value));
		properties.add("spring.data.redis.client-type=" + (jedis ? "jedis" : "lettuce"));
		new ApplicationContextRunner().withClassLoader(recipe.getClassLoader())
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withUserConfiguration(recipe)
			.withPropertyValues(properties.toArray(String[]::new))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RedisConnectionFactory.class))
					.isInstanceOf(jedis ? JedisConnectionFactory.class : LettuceConnectionFactory.class);
				if (flushPolicy != null) {
					assertThat(flushState(context.getBean(LettuceConnectionFactory.class)))
						.as("the policy the recipe's BeanPostProcessor set on Spring Boot's factory")
						.isEqualTo(flushPolicy);
				}
				Object store = context.getBeansOfType(Object.class)
					.values()
					.stream()
					.filter((bean) -> bean.getClass().getEnclosingClass() == recipe
							&& bean.getClass().getSimpleName().endsWith("Store"))
					.findFirst()
					.orElseThrow();
				Map<String, String> entries = new LinkedHashMap<>();
				for (int i = 0; i < keys.size(); i++) {
					entries.put(keys.get(i), "value-" + i);
				}
				store.getClass().getMethod("setAll", Map.class).invoke(store, entries);
				check.accept(entries);
				List<String> asked = new ArrayList<>(keys);
				asked.add(keys.get(0).replace("key:0", "absent"));
				@SuppressWarnings("unchecked")
				List<String> read = (List<String>) store.getClass()
					.getMethod("getAll", List.class)
					.invoke(store, asked);
				List<String> expected = new ArrayList<>(entries.values());
				expected.add(null);
				assertThat(read).containsExactlyElementsOf(expected);
			});
	}

}
