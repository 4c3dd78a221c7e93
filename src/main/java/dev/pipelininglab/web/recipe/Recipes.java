package dev.pipelininglab.web.recipe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.pipelininglab.redis.Connector;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.redis.Writes;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.web.LabSettings;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

/**
 * A Java file per way of sending ({@code src/main/resources/recipes/}, run by
 * {@code RecipeTests}) with batch size and flush policy filled in; cost and catch come
 * from the file's own comment, so they cannot drift from the code.
 */
@Component
class Recipes {

	static final String FOLDER = "src/main/resources/recipes/";

	static final Pattern BATCH_SIZE = Pattern.compile("static final int BATCH_SIZE = (\\d+);");

	static final String FLUSH_POLICY = "PipeliningFlushPolicy.buffered(500)";

	private static final Pattern COST = Pattern.compile("Cost: (.+?)\\n \\*( <p>|/)", Pattern.DOTALL);

	private static final Pattern CATCH = Pattern.compile("Catch: (.+?)\\n \\*( <p>|/)", Pattern.DOTALL);

	/** Jedis shares all but the pipeline's. */
	enum File {

		LOOP("LoopRecipe"), PIPELINED("PipelinedRecipe"), JEDIS_PIPELINED("JedisPipelinedRecipe"),
		MULTI_KEY("MultiKeyRecipe"), HASH_TAG("HashTagRecipe"), SCRIPT("ScriptRecipe"), ASYNC("AsyncRecipe"),
		TRANSACTION("TransactionRecipe"), PIPELINED_TRANSACTION("PipelinedTransactionRecipe"),
		REACTIVE("ReactiveRecipe"), PIPELINED_BY_NODE("NodeGroupedRecipe");

		final String className;

		File(String className) {
			this.className = className;
		}

		String path() {
			return FOLDER + this.className + ".java";
		}

		static File of(Variant variant) {
			return switch (variant.mode()) {
				case LOOP -> LOOP;
				case PIPELINED -> (variant.connector() == Connector.JEDIS) ? JEDIS_PIPELINED : PIPELINED;
				case MULTI_KEY -> MULTI_KEY;
				case MULTI_KEY_HASHTAG -> HASH_TAG;
				case SCRIPT -> SCRIPT;
				case ASYNC -> ASYNC;
				case TRANSACTION, TRANSACTION_HASHTAG -> TRANSACTION;
				case PIPELINED_TRANSACTION -> PIPELINED_TRANSACTION;
				case REACTIVE -> REACTIVE;
				case PIPELINED_BY_NODE -> PIPELINED_BY_NODE;
			};
		}

	}

	private final Map<File, String> sources = new EnumMap<>(File.class);

	private final FlushPolicy defaultPolicy;

	private static final String PER_FLUSH = "The lab's per-flush writing is its own Lettuce endpoint"
			+ " (src/main/java/dev/pipelininglab/redis/lettuce/BatchWritingEndpoint.java and"
			+ " BatchWritingRedisClient.java), not a setting: this recipe writes per command, as Lettuce and every"
			+ " Spring app do (the variant without -per-flush).";

	/** Left out where the policy is Spring Data Redis' default already. */
	private static final Pattern POLICY_BEAN = Pattern.compile(
			"\\t@Bean\\n\\tstatic BeanPostProcessor pipeliningFlushPolicy\\(\\) \\{.*?\\n\\t}\\n\\n", Pattern.DOTALL);

	private final Topology topology;

	Recipes(LabSettings settings, Topology topology) {
		for (File file : File.values()) {
			this.sources.put(file, read(file));
		}
		this.defaultPolicy = settings.pipeline().flushPolicy();
		this.topology = topology;
	}

	private static String read(File file) {
		try {
			return new ClassPathResource("recipes/" + file.className + ".java")
				.getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("The recipe " + file.path() + " is missing from the classpath", ex);
		}
	}

	Recipe recipe(Variant variant, int size) {
		File file = File.of(variant);
		String template = Objects.requireNonNull(this.sources.get(file), file.className);
		boolean batched = variant.mode() != Mode.LOOP;
		String source = batched ? BATCH_SIZE.matcher(template)
			.replaceFirst(Matcher.quoteReplacement("static final int BATCH_SIZE = " + size + ";")) : template;
		FlushPolicy policy = null;
		if (file == File.PIPELINED) {
			policy = variant.policyOr(this.defaultPolicy);
			source = (policy.kind() == FlushPolicy.Kind.FLUSH_EACH_COMMAND) ? withoutPolicyBean(source)
					: source.replace(FLUSH_POLICY, lettuceCall(policy));
		}
		boolean jedis = variant.connector() == Connector.JEDIS;
		String properties = jedis ? "spring.data.redis.client-type=jedis" : null;
		if (jedis && file != File.JEDIS_PIPELINED) {
			source = "// With Jedis: spring.data.redis.client-type=jedis, and redis.clients:jedis on the classpath.\n"
					+ source;
		}
		return new Recipe(variant.label(), file.className, file.path(), batched ? size : null,
				(policy != null) ? policy.toString() : null, properties, first(COST, template), first(CATCH, template),
				note(variant), source);
	}

	static String withoutPolicyBean(String source) {
		String without = POLICY_BEAN.matcher(source)
			.replaceFirst(
					Matcher.quoteReplacement("\t// No flush policy to set: flushEachCommand() is Spring Data Redis'"
							+ " default, one socket write per command.\n\n"));
		for (String used : new String[] { "org.springframework.beans.factory.config.BeanPostProcessor",
				"org.springframework.data.redis.connection.lettuce.LettuceConnection.PipeliningFlushPolicy",
				"org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory" }) {
			without = without.replace("import " + used + ";\n", "");
		}
		return without;
	}

	static String lettuceCall(FlushPolicy policy) {
		return switch (policy.kind()) {
			case FLUSH_EACH_COMMAND -> "PipeliningFlushPolicy.flushEachCommand()";
			case FLUSH_ON_CLOSE -> "PipeliningFlushPolicy.flushOnClose()";
			case BUFFERED -> "PipeliningFlushPolicy.buffered(" + policy.bufferSize() + ")";
		};
	}

	private @Nullable String note(Variant variant) {
		String cluster = clusterOnly(variant);
		String writes = (variant.writes() == Writes.PER_FLUSH) ? PER_FLUSH : null;
		return (cluster != null && writes != null) ? cluster + " " + writes : (cluster != null) ? cluster : writes;
	}

	private @Nullable String clusterOnly(Variant variant) {
		if (this.topology.kind() == Topology.Kind.CLUSTER) {
			return null;
		}
		String what = switch (variant.mode()) {
			case PIPELINED_BY_NODE -> "one pipeline per cluster master";
			case TRANSACTION_HASHTAG -> "a MULTI/EXEC whose keys share one cluster hash slot";
			case MULTI_KEY_HASHTAG -> "multi-key commands whose keys share one cluster hash slot";
			default -> null;
		};
		return (what != null) ? "Cluster only: " + variant.label() + " is " + what + ". This lab is connected to a "
				+ this.topology.kind().toString().toLowerCase(java.util.Locale.ROOT) + " Redis, where it does not run"
				+ " (a comparison skips it); the code is for an app on a Redis Cluster." : null;
	}

	private static String first(Pattern pattern, String template) {
		Matcher matcher = pattern.matcher(template);
		if (!matcher.find()) {
			throw new IllegalStateException("A recipe states no " + pattern.pattern().substring(0, 5));
		}
		return matcher.group(1).replaceAll("\\s*\\n \\* ?", " ").replaceAll("\\{@code ([^}]*)}", "$1").trim();
	}

	/**
	 * @param properties what the recipe needs beyond {@code spring.data.redis.*}
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record Recipe(String variant, String recipe, String path, @Nullable Integer batchSize, @Nullable String flushPolicy,
			@Nullable String properties, String cost, @JsonProperty("catch") String catchText, @Nullable String note,
			String source) {
	}

}
