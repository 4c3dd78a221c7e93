package dev.pipelininglab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.pipelininglab.redis.lettuce.BatchWritingConnectionFactory;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.protocol.MaintenanceAwareConnectionWatchdog;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.web.servlet.HandlerMapping;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The shape of the main code, checked on its compiled classes. Packages are features, and
 * their arrows point one way:
 *
 * <pre>
 * package      may use
 * web          job, metrics, run, redis
 * job          metrics, run, redis
 * metrics      run
 * run          redis
 * redis        latency
 * latency      -
 * localredis   -   (started on its own, before the application context)
 * </pre>
 *
 * <ul>
 * <li>{@code web} and its sub-packages (the run API, problem details, request guards,
 * output formats, recipes, jobs) are the only packages that speak HTTP; nothing depends
 * on them.</li>
 * <li>{@code job} runs measurements in the background and keeps their records; it names
 * problems by {@link ProblemType} and leaves their HTTP form to {@code web}.</li>
 * <li>{@code run} measures: one run specification, one measuring path, the runners; it
 * knows nothing of jobs.</li>
 * <li>{@code redis} is connections, routes, flush policies and key naming; its
 * {@code redis.lettuce} holds the one part built on Lettuce's internals, which only
 * {@code redis} uses; {@code latency} the relay that adds round trips; {@code localredis}
 * the redis-server the app starts when none answers.</li>
 * <li>The root package ({@link PipeliningLabApplication}, {@link ProblemType},
 * {@link ProblemException}, {@link PlainNumbers}, {@link LimitProperties}) is what every
 * feature may use; it uses none of them.</li>
 * <li>No cycle at any depth: inside {@code web}, {@code web.tomcat} is below {@code web}
 * itself (the run API, the parameter catalogue), and {@code web.problem},
 * {@code web.text}, {@code web.recipe}, {@code web.job} and {@code web.guard} are above
 * it: they use the catalogue, it uses none of them.</li>
 * <li>Each run endpoint's handler knows its operation and mode: nothing reads back which
 * pattern Spring MVC matched.</li>
 * </ul>
 * Settings live beside the feature that reads them ({@code redis.PipelineProperties},
 * {@code job.JobProperties}, ...), as Spring Boot keeps {@code RedisProperties} beside
 * its Redis support.
 * <p>
 * The last rules keep the main code from emptying, listing or scripting a Redis beyond
 * the lab's prefix; {@code reliability.MainCodeScanTests} reads the source for what only
 * the source shows (command names in string literals, Lua scripts).
 */
class ArchitectureTests {

	private static final String BASE = "dev.pipelininglab";

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(BASE);

	static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
		.layer("web")
		.definedBy(BASE + ".web..")
		.layer("job")
		.definedBy(BASE + ".job..")
		.layer("metrics")
		.definedBy(BASE + ".metrics..")
		.layer("run")
		.definedBy(BASE + ".run..")
		.layer("redis")
		.definedBy(BASE + ".redis..")
		.layer("latency")
		.definedBy(BASE + ".latency..")
		.layer("localredis")
		.definedBy(BASE + ".localredis..")
		.whereLayer("web")
		.mayNotBeAccessedByAnyLayer()
		.whereLayer("job")
		.mayOnlyBeAccessedByLayers("web")
		.whereLayer("metrics")
		.mayOnlyBeAccessedByLayers("web", "job")
		.whereLayer("run")
		.mayOnlyBeAccessedByLayers("web", "job", "metrics")
		.whereLayer("redis")
		.mayOnlyBeAccessedByLayers("web", "job", "metrics", "run")
		.whereLayer("latency")
		.mayOnlyBeAccessedByLayers("redis")
		.whereLayer("localredis")
		.mayNotBeAccessedByAnyLayer();

	static final ArchRule NOTHING_BELOW_WEB_USES_IT = noClasses().that()
		.resideOutsideOfPackage(BASE + ".web..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage(BASE + ".web..")
		.because("web is the top: controllers, request checks and problem answers use the features, not the reverse");

	static final ArchRule RUN_KNOWS_NOTHING_OF_JOBS = noClasses().that()
		.resideInAPackage(BASE + ".run..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage(BASE + ".job..")
		.because("a job runs a measurement in the background; the measurement does not know how it was started");

	static final ArchRule NO_CYCLES = slices().matching(BASE + ".(**)")
		.namingSlices("$1")
		.should()
		.beFreeOfCycles()
		.because("a cycle between packages, features or a feature's parts, makes them one that cannot be read or"
				+ " changed alone");

	static final ArchRule ROOT_USES_NO_FEATURE = noClasses().that()
		.resideInAPackage(BASE)
		.should()
		.dependOnClassesThat()
		.resideInAPackage(BASE + ".(*)..")
		.because("the root holds what every feature may use (the problem catalogue, plain numbers, limits)");

	static final ArchRule SPRING_WEB_ONLY_IN_WEB = noClasses().that()
		.resideOutsideOfPackage(BASE + ".web..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework.web..", "org.springframework.http..", "jakarta.servlet..",
				"org.apache.catalina..", "org.apache.tomcat..", "org.springdoc..", "io.swagger..")
		.because("HTTP is the web layer's business: a job or a run can be started by other means, and a"
				+ " problem is named by its ProblemType (a ProblemException carries it); its ProblemDetail is built"
				+ " in web");

	static final ArchRule LETTUCE_HOOKS_ONLY_FOR_REDIS = noClasses().that()
		.resideOutsideOfPackages(BASE + ".redis", BASE + ".redis.lettuce")
		.should()
		.dependOnClassesThat()
		.resideInAPackage(BASE + ".redis.lettuce")
		.because("redis.lettuce extends Lettuce's internals, which may change in any Lettuce release:"
				+ " one package uses it, so an upgrade breaks in one place (LettuceHooksContractTests)");

	static final ArchRule TOMCAT_HOOK_ONLY_FOR_WEB = noClasses().that()
		.resideOutsideOfPackages(BASE + ".web", BASE + ".web.tomcat")
		.should()
		.dependOnClassesThat()
		.resideInAPackage(BASE + ".web.tomcat")
		.because("web.tomcat reads Tomcat's internals, which may move in any Tomcat release: only web uses"
				+ " it, so an upgrade breaks in one place (TomcatHooksContractTests)");

	static final ArchRule REFLECTION_ONLY_IN_THE_HOOK_PACKAGES = noClasses().that()
		.resideOutsideOfPackages(BASE + ".redis.lettuce", BASE + ".web.tomcat")
		.should()
		.callMethodWhere(named("setAccessible or getDeclaredField(s)", "setAccessible|getDeclaredFields?"))
		.orShould()
		.callConstructor(DirectFieldAccessor.class, Object.class)
		.because("reading a library's or the container's private state is a hook, and hooks live in their"
				+ " fenced packages, each with a contract test");

	static final ArchRule LETTUCE_INTERNALS_ONLY_IN_THEIR_PACKAGE = noClasses().that()
		.resideOutsideOfPackage(BASE + ".redis.lettuce")
		.should()
		.beAssignableTo(DefaultEndpoint.class)
		.orShould()
		.beAssignableTo(RedisChannelWriter.class)
		.orShould()
		.beAssignableTo(AbstractRedisClient.class)
		.orShould()
		.dependOnClassesThat()
		.belongToAnyOf(DefaultEndpoint.class, MaintenanceAwareConnectionWatchdog.class)
		.because("subclasses and wrappers of Lettuce's endpoints, writers and clients rely on what Lettuce"
				+ " may change in any release; they live where LettuceHooksContractTests checks them");

	static final ArchRule NO_FLUSH = noClasses().should()
		.accessTargetWhere(named("FLUSHALL or FLUSHDB, by any client", "(?i)flush(all|db)"))
		.because("the lab empties only its own keys, by SCAN over its prefix and UNLINK");

	static final ArchRule NO_KEYS_PATTERN = noClasses().should()
		.accessTargetWhere(keysWithAPattern())
		.because("KEYS blocks the server while it walks every key; the lab SCANs its own prefix");

	static final ArchRule EVAL_ONLY_FOR_THE_SCRIPT_FALLBACK = noClasses().that()
		.doNotHaveFullyQualifiedName(BASE + ".run.ScriptRunner")
		.should()
		.accessTargetWhere(named("EVAL", "eval"))
		.because("no script text is sent, except the script variant's NOSCRIPT fallback, which runs one of"
				+ " ScriptRunner's own constant scripts (and so caches it for the EVALSHA of the next batch)");

	static final ArchRule NO_RAW_DISPATCH = noClasses().should()
		.accessTargetWhere(named("Lettuce's dispatch of arbitrary commands", "dispatch"))
		.because("every command the lab sends is one it names");

	static final ArchRule NO_DANGEROUS_COMMAND_TYPES = noClasses().should()
		.accessFieldWhere(dangerousCommandType())
		.because("a command type is how a raw FLUSHALL, KEYS, CONFIG, DEBUG, MONITOR, SHUTDOWN or EVAL would be sent");

	@Test
	void featuresFormLayers() {
		LAYERS.check(MAIN);
	}

	@Test
	void nothingBelowTheWebLayerUsesIt() {
		NOTHING_BELOW_WEB_USES_IT.check(MAIN);
	}

	@Test
	void aRunKnowsNothingOfJobs() {
		RUN_KNOWS_NOTHING_OF_JOBS.check(MAIN);
	}

	/**
	 * NullAway checks only {@code @NullMarked} code: a package without it would compile
	 * unchecked, silently.
	 */
	@Test
	void everyPackageIsNullMarked() {
		List<String> unmarked = MAIN.stream()
			.map(JavaClass::getPackage)
			.distinct()
			.filter((pkg) -> !pkg.isAnnotatedWith(NullMarked.class))
			.map(JavaPackage::getName)
			.sorted()
			.toList();
		assertThat(unmarked).as("packages without @NullMarked in their package-info.java").isEmpty();
	}

	@Test
	void featuresHaveNoCycles() {
		NO_CYCLES.check(MAIN);
	}

	/**
	 * Read in the source: the attribute's name is a constant that the compiler copies
	 * into the classes, where no rule on them can see it.
	 */
	@Test
	void noHandlerAsksSpringMvcWhichPatternMatched() throws IOException {
		List<String> readers = new ArrayList<>();
		try (Stream<Path> sources = Files.walk(Path.of("src", "main", "java"))) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
				String code = Files.readString(source);
				if (code.contains("BEST_MATCHING_PATTERN_ATTRIBUTE") || code.contains(".bestMatchingPattern")) {
					readers.add(source.toString());
				}
			}
		}
		assertThat(readers).isEmpty();
		assertThat(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE).endsWith(".bestMatchingPattern");
	}

	@Test
	void theRootUsesNoFeature() {
		ROOT_USES_NO_FEATURE.check(MAIN);
	}

	@Test
	void springWebStaysInTheWebLayer() {
		SPRING_WEB_ONLY_IN_WEB.check(MAIN);
	}

	@Test
	void onlyTheRedisPackageUsesTheLettuceHooks() {
		LETTUCE_HOOKS_ONLY_FOR_REDIS.check(MAIN);
	}

	@Test
	void onlyTheWebPackageUsesTheTomcatHookAndNothingElseReadsPrivateState() {
		TOMCAT_HOOK_ONLY_FOR_WEB.check(MAIN);
		REFLECTION_ONLY_IN_THE_HOOK_PACKAGES.check(MAIN);
	}

	@Test
	void lettuceInternalsAreExtendedInOnePackage() {
		LETTUCE_INTERNALS_ONLY_IN_THEIR_PACKAGE.check(MAIN);
	}

	@Test
	void mainCodeNeverFlushesListsKeysOrSendsRawCommands() {
		NO_FLUSH.check(MAIN);
		NO_KEYS_PATTERN.check(MAIN);
		EVAL_ONLY_FOR_THE_SCRIPT_FALLBACK.check(MAIN);
		NO_RAW_DISPATCH.check(MAIN);
		NO_DANGEROUS_COMMAND_TYPES.check(MAIN);
	}

	@Test
	void theCommandRulesRecogniseWhatTheyLookFor() {
		JavaClasses offenders = new ClassFileImporter().importClasses(Offender.class);
		for (ArchRule rule : Set.of(NO_FLUSH, NO_KEYS_PATTERN, EVAL_ONLY_FOR_THE_SCRIPT_FALLBACK, NO_RAW_DISPATCH,
				NO_DANGEROUS_COMMAND_TYPES)) {
			assertThatExceptionOfType(AssertionError.class).as(rule.getDescription())
				.isThrownBy(() -> rule.check(offenders));
		}
		JavaClasses innocent = new ClassFileImporter().importClasses(Innocent.class);
		for (ArchRule rule : Set.of(NO_FLUSH, NO_KEYS_PATTERN, NO_DANGEROUS_COMMAND_TYPES)) {
			assertThatNoException().as(rule.getDescription()).isThrownBy(() -> rule.check(innocent));
		}
	}

	@Test
	void theReflectionRuleRecognisesAFieldMadeAccessible() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> REFLECTION_ONLY_IN_THE_HOOK_PACKAGES
			.check(new ClassFileImporter().importClasses(ReadsPrivateState.class)));
	}

	/** What the reflection rule looks for, outside the hook packages. */
	static final class ReadsPrivateState {

		Object read(Object target) throws ReflectiveOperationException {
			java.lang.reflect.Field field = target.getClass().getDeclaredField("value");
			field.setAccessible(true);
			return field.get(target);
		}

	}

	@Test
	void theLettuceRulesRecogniseWhatTheyLookFor() {
		JavaClasses offenders = new ClassFileImporter().importClasses(EndpointOutsideItsPackage.class);
		for (ArchRule rule : Set.of(LETTUCE_HOOKS_ONLY_FOR_REDIS, LETTUCE_INTERNALS_ONLY_IN_THEIR_PACKAGE)) {
			assertThatExceptionOfType(AssertionError.class).as(rule.getDescription())
				.isThrownBy(() -> rule.check(offenders));
		}
	}

	private static DescribedPredicate<JavaAccess<?>> named(String what, String name) {
		return DescribedPredicate.describe(what, (access) -> access.getTarget().getName().matches(name));
	}

	/**
	 * {@code KEYS} always takes a pattern; an accessor such as {@code pass.keys()} none.
	 */
	private static DescribedPredicate<JavaAccess<?>> keysWithAPattern() {
		return DescribedPredicate.describe("KEYS with a pattern",
				(access) -> access.getTarget().getName().equals("keys")
						&& access.getTarget() instanceof AccessTarget.CodeUnitAccessTarget target
						&& !target.getRawParameterTypes().isEmpty());
	}

	private static DescribedPredicate<JavaFieldAccess> dangerousCommandType() {
		Set<String> names = Set.of("FLUSHALL", "FLUSHDB", "KEYS", "CONFIG", "DEBUG", "MONITOR", "SHUTDOWN", "EVAL");
		return DescribedPredicate
			.describe("a FLUSHALL, FLUSHDB, KEYS, CONFIG, DEBUG, MONITOR, SHUTDOWN or EVAL CommandType", (access) -> {
				JavaClass owner = access.getTarget().getOwner();
				return owner.isEquivalentTo(CommandType.class) && names.contains(access.getTarget().getName());
			});
	}

	/** What the command rules must catch; never run. */
	@SuppressWarnings({ "unused", "deprecation" })
	static final class Offender {

		void flush(RedisConnection connection, RedisCommands<String, String> commands) {
			connection.serverCommands().flushAll();
			commands.flushdb();
			connection.keyCommands().keys("*".getBytes());
			commands.eval("return 1", io.lettuce.core.ScriptOutputType.INTEGER);
			commands.dispatch(CommandType.KEYS, new io.lettuce.core.output.StatusOutput<>(null));
		}

	}

	/** What the Lettuce rules must catch; never made. */
	static final class EndpointOutsideItsPackage extends DefaultEndpoint {

		EndpointOutsideItsPackage(BatchWritingConnectionFactory factory) {
			super(io.lettuce.core.ClientOptions.create(), factory.getClientResources());
		}

	}

	/** What they must let through; never run. */
	static final class Innocent {

		record Pass(int keys) {
		}

		int keys(Pass pass, RedisCommands<String, String> commands) {
			commands.unlink("pipelining-lab:key:1");
			return pass.keys();
		}

	}

}
