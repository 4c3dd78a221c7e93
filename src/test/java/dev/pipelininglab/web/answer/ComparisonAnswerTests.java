package dev.pipelininglab.web.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.FlushPolicy;
import dev.pipelininglab.run.Mode;
import dev.pipelininglab.run.Operation;
import dev.pipelininglab.run.RunObserver;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.Specs;
import dev.pipelininglab.run.Variant;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A comparison opens with the answer a Spring developer came for: what
 * {@code executePipelined} gives against the loop, as Boot ships it and with one line of
 * configuration, each with the spread of its passes, then the batch size to use,
 * measured. The tests' properties turn all of it off (they count every command a
 * comparison sends); this class turns it on, with passes short enough for a test.
 */
@SharedRedis
@SlowTest
@TestPropertySource(
		properties = { "lab.compare.batch-sizes=10,100,1000", "lab.compare.passes=3", "lab.compare.pass-time=50ms" })
class ComparisonAnswerTests extends MockMvcOnTestRedis {

	private static final String VARIANTS = "loop,pipelined-flush-each-command,pipelined-buffered-500,multi-key";

	@Autowired
	RunService runs;

	@Test
	void theFirstSentenceIsThePipelinesSpeedupOverTheLoopWithItsSpreadThenTheBatchSizeToUse() throws Exception {
		String body = okBody("/compare/set/2000?batchSize=500&variants=" + VARIANTS);
		String summary = JsonPath.read(body, "$.summary");
		System.out.println("[compare] " + summary);
		String first = summary.substring(0, summary.indexOf(". ") + 1);
		assertThat(first).startsWith("executePipelined as Spring Boot gives it (pipelined-flush-each-command) ran ")
			.contains("with one line of configuration (pipelined-buffered-500) ")
			.containsPattern("ran [0-9.]+× \\([0-9.]+–[0-9.]+×\\) the loop")
			.containsPattern("whose loop ran [0-9,]+ ops/s \\([0-9,]+–[0-9,]+\\)\\.");
		// The advice's figure carries the spread of its passes like every other.
		assertThat(summary).containsPattern(" Use batches of [0-9,]+: [0-9,]+ ops/s \\([0-9,]+–[0-9,]+\\), ");
		double advised = JsonPath.<Number>read(body, "$.recommendation.opsPerSecond").doubleValue();
		assertThat(JsonPath.<Number>read(body, "$.recommendation.opsPerSecondMin").doubleValue())
			.isLessThanOrEqualTo(advised);
		assertThat(JsonPath.<Number>read(body, "$.recommendation.opsPerSecondMax").doubleValue())
			.isGreaterThanOrEqualTo(advised);
		assertThat(JsonPath.<Integer>read(body, "$.recommendation.batchSize")).isIn(10, 100, 500, 1000);
		assertThat(JsonPath.<List<Map<String, Object>>>read(body, "$.recommendation.byRtt")).isNotEmpty();
		// The configured pipeline ran at every batch size of the setting and the
		// request's.
		assertThat(JsonPath.<List<Integer>>read(body, "$.recommendation.timedAt")).containsExactly(10, 100, 500, 1000);
		// The extra batch sizes are the advice's evidence, not rows.
		assertThat(results(body, "variant")).containsExactly("loop", "pipelined-flush-each-command",
				"pipelined-buffered-500", "multi-key");
	}

	@Test
	void everyRowCarriesTheSpreadOfItsPassesAndRanByTimeOverCountKeys() throws Exception {
		String body = okBody("/compare/set/2000?batchSize=500&variants=" + VARIANTS);
		assertThat(results(body, "repeat")).containsOnly(3);
		List<Number> min = results(body, "opsPerSecondMin");
		List<Number> ops = results(body, "opsPerSecond");
		List<Number> max = results(body, "opsPerSecondMax");
		assertThat(min).hasSize(4);
		assertThat(max).hasSize(4);
		for (int row = 0; row < 4; row++) {
			assertThat(min.get(row).doubleValue()).isLessThanOrEqualTo(ops.get(row).doubleValue());
			assertThat(max.get(row).doubleValue()).isGreaterThanOrEqualTo(ops.get(row).doubleValue());
		}
		// Every row but the loop, 1× by definition.
		assertThat(results(body, "speedupMin")).hasSize(3);
		assertThat(results(body, "speedupMax")).hasSize(3);
		// A pass by time, cycling over the 2,000 keys asked for: no more keys than that,
		// each holding what the last pass wrote to it.
		assertThat(results(body, "timeLimit.seconds")).containsOnly(0.05);
		assertThat(results(body, "keySpace.keys")).containsOnly(2000);
		for (Number verified : JsonPath.<List<Number>>read(body, "$.results[*].verified")) {
			assertThat(verified.longValue()).isBetween(1L, 2000L);
		}
		assertThat(JsonPath.<Number>read(body, "$.count").longValue()).isEqualTo(2000);
	}

	@Test
	void aGetComparisonReadsByTimeOnlyTheCountKeysItPrepared() throws Exception {
		String body = okBody("/compare/get/1500?batchSize=100&variants=loop,pipelined");
		assertThat(results(body, "timeLimit.seconds")).containsOnly(0.05);
		assertThat(results(body, "keySpace.keys")).containsOnly(1500);
		// Every GET of every pass found its key: the walk reads only the keys prepared.
		List<Number> hits = results(body, "hits");
		List<Number> ran = results(body, "timeLimit.commandsRan");
		for (int row = 0; row < 2; row++) {
			assertThat(hits.get(row).longValue()).isEqualTo(ran.get(row).longValue());
		}
		assertThat(results(body, "keySpace.hitRate")).containsOnly(1.0);
		assertThat(this.redis.keys(this.keys.keyPattern().replace("<i>", "*"))).hasSize(1500);
	}

	@Test
	void passesAreInterleavedRoundByRoundSoDriftHitsEveryVariantAndBatchSizeAlike() {
		List<String> timed = new ArrayList<>();
		RunObserver observer = new RunObserver() {
			@Override
			public void phase(Phase phase, String variant, int batchSize, long commands) {
				if (phase == Phase.TIMING) {
					timed.add(variant + " at " + batchSize);
				}
			}
		};
		this.runs.compare(this.runs.plan(Specs.of(Operation.SET, Mode.LOOP, FlushPolicy.buffered(500), 2000, 500, 0),
				List.of(Variant.valueOf("loop"), Variant.valueOf("pipelined-buffered-500")), true), observer);
		// Two rows and the advice's three other batch sizes, three rounds of each.
		assertThat(timed).hasSize(15);
		List<String> round = timed.subList(0, 5);
		assertThat(round).doesNotHaveDuplicates();
		assertThat(timed.subList(5, 10)).isEqualTo(round);
		assertThat(timed.subList(10, 15)).isEqualTo(round);
	}

	@Test
	void aComparisonThatAsksForItsOwnRepeatRunsAsAsked() throws Exception {
		String body = okBody("/compare/set/2000?repeat=1&variants=loop,pipelined");
		assertThat(results(body, "repeat")).containsOnly(1);
		assertThat(results(body, "opsPerSecondMin")).isEmpty();
		assertThat(results(body, "timeLimit")).isEmpty();
		assertThat(JsonPath.<String>read(body, "$.summary"))
			.startsWith("executePipelined with one line of configuration (pipelined");
	}

}
