package dev.pipelininglab.run;

import java.nio.file.Files;
import java.util.concurrent.TimeUnit;

import dev.pipelininglab.PipeliningLabApplication;
import dev.pipelininglab.localredis.RedisServerBinary;
import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.redis.KeySpace;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SET commands per second through the app's own pipelined path (one {@code executePipelined} batch per
 * invocation), on a real redis-server this benchmark starts on a free port. Run with
 * {@code ./mvnw -Pjmh test-compile exec:exec}; add {@code -Djmh.args="-p flushPolicy=buffered-1000"} to narrow it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PipelinedSetBenchmark {

	static final int BATCH = 10_000;

	@Param({ "flush-each-command", "flush-on-close", "buffered-1000" })
	public String flushPolicy;

	private RedisServerProcess redis;

	private ConfigurableApplicationContext context;

	private PipelinedRunner runner;

	private Pass pass;

	@Setup
	public void start() throws Exception {
		int port = RedisServerProcess.freePort();
		this.redis = RedisServerProcess.start(RedisServerBinary.resolve(null), port,
				Files.createTempDirectory("jmh-redis"));
		this.context = new SpringApplicationBuilder(PipeliningLabApplication.class).web(WebApplicationType.NONE)
			.run("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + port,
					"--lab.local-redis.enabled=false", "--logging.level.root=warn");
		FlushPolicy policy = FlushPolicy.valueOf(this.flushPolicy);
		this.runner = this.context.getBean(PipelinedRunner.class);
		this.pass = new Pass(Specs.of(Operation.SET, Mode.PIPELINED, policy, BATCH, BATCH, 0),
				this.context.getBean(KeySpace.class), this.context.getBean(RouteCache.class).route(policy, null));
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public long pipelinedSetBatch() {
		Tally tally = new Tally(0);
		this.runner.run(this.pass, 0, BATCH, tally);
		return tally.values();
	}

	@TearDown
	public void stop() {
		this.context.close();
		this.redis.stop();
	}

}
