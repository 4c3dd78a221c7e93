package dev.pipelininglab.web.workload;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.PauseNotes;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * memtier's key patterns: {@code keys}, {@code pattern} and {@code seed} make every
 * variant send the same key sequence over a key space, GETs on a partly written one
 * report their hit rate, and a SET run over fewer keys than items still reads back the
 * last write to each key.
 */
@SlowTest
@SharedRedis
class KeyPatternTests extends MockMvcOnTestRedis {

	@Autowired
	StandaloneRedis server;

	@Test
	void aGaussianWalkWithSeedSevenReadsTheSameKeysInTheLoopAndThePipeline() throws Exception {
		// Keys 0 to 999 written; the GETs walk 3,000 keys around key 1,500.
		okBody("/pipeset/1000?keys=1000", jsonPath("$.verified").value(1000));
		String walk = "/3000?keys=3000&pattern=gaussian&seed=7";
		long[] loop = getRun("/loopget" + walk);
		long[] pipelined = getRun("/pipeget" + walk + "&batchSize=100");
		// Client side: the same hits and misses.
		assertThat(pipelined[0]).isEqualTo(loop[0]);
		assertThat(pipelined[1]).isEqualTo(loop[1]);
		assertThat(loop[0]).isPositive();
		assertThat(loop[1]).isPositive();
		// Server side: warm-ups read keys of their own that do not exist, so they add
		// misses but never hits: the hits the server counted are the run's.
		assertThat(pipelined[2]).isEqualTo(loop[2]).isEqualTo(loop[0]);
	}

	/** Hits, misses and the server's keyspace_hits over one GET run. */
	private long[] getRun(String uri) throws Exception {
		long hitsBefore = NodeStats.counter(this.server.process(), "stats", "keyspace_hits");
		long lookupsBefore = othersLookups();
		String body = okBody(uri, jsonPath("$.keySpace.keys").value(3000),
				jsonPath("$.keySpace.pattern").value("gaussian"), jsonPath("$.keySpace.seed").value(7));
		// The run's record looks for other runs beside it in two sorted sets that exist:
		// hits of the lab's, not the run's.
		long serverHits = NodeStats.counter(this.server.process(), "stats", "keyspace_hits") - hitsBefore
				- (othersLookups() - lookupsBefore);
		long hits = JsonPath.<Number>read(body, "$.hits").longValue();
		long misses = JsonPath.<Number>read(body, "$.misses").longValue();
		assertThat(hits + misses).isEqualTo(3000);
		assertThat(JsonPath.<Double>read(body, "$.keySpace.hitRate")).isEqualTo(Math.round(hits / 0.3) / 10_000.0);
		return new long[] { hits, misses, serverHits };
	}

	@Test
	void aUniformSetOverFewerKeysThanItemsLeavesTheLastWriteInEveryKeyItTouched() throws Exception {
		String walk = "/5000?keys=500&pattern=uniform&seed=3";
		for (String uri : new String[] { "/loopset" + walk, "/pipeset" + walk + "&batchSize=100" }) {
			this.testRedis.flushAll();
			// No shortfall note: 5,000 writes over fewer keys are not items gone missing.
			String body = okBody(uri, jsonPath("$.written").value(5000));
			assertThat(PauseNotes.besidesPauses(body)).isEmpty();
			long distinct = JsonPath.<Number>read(body, "$.keySpace.distinctKeys").longValue();
			// 5,000 draws over 500 keys leave none out but by a fluke.
			assertThat(distinct).isBetween(490L, 500L);
			assertThat(JsonPath.<Number>read(body, "$.verified").longValue()).isEqualTo(distinct);
			// Every key in Redis, the run's record aside.
			assertThat(this.redis.keys("*").stream().filter((key) -> !NodeStats.isRunRecord(key)).count())
				.isEqualTo(distinct);
		}
	}

	@Test
	void everyVariantOfAComparisonWritesTheSameKeysAndReadsBackTheLastWrites() throws Exception {
		String body = okBody("/compare/set/3000?keys=400&pattern=gaussian&seed=11&batchSize=250"
				+ "&variants=loop,pipelined,multi-key,multi-key-hashtag,script,async,transaction,reactive");
		List<String> ran = results(body, "variant");
		assertThat(ran).hasSize(8 - JsonPath.<List<Object>>read(body, "$.skipped").size())
			.contains("loop", "multi-key", "script", "async");
		List<Number> distinct = results(body, "keySpace.distinctKeys");
		assertThat(distinct).hasSize(ran.size()).allSatisfy((keys) -> assertThat(keys).isEqualTo(distinct.get(0)));
		assertThat(results(body, "verified")).isEqualTo(distinct);
	}

	@Test
	void aGetComparisonOverMoreKeysThanItWroteGivesEveryVariantTheSameHitRate() throws Exception {
		// The set-up writes keys 0 to 999; the GETs walk 3,000 keys around key 1,500.
		String body = okBody("/compare/get/1000?keys=3000&pattern=gaussian&seed=7&batchSize=100"
				+ "&variants=loop,pipelined,multi-key,async");
		List<Number> hits = results(body, "hits");
		assertThat(hits).hasSize(4).allSatisfy((count) -> assertThat(count).isEqualTo(hits.get(0)));
		List<Double> hitRates = results(body, "keySpace.hitRate");
		assertThat(hitRates).allSatisfy((rate) -> assertThat(rate).isEqualTo(hits.get(0).longValue() / 1000.0))
			.allSatisfy((rate) -> assertThat(rate).isBetween(0.05, 0.5));
	}

	@Test
	void aBodyForPostRunsIsCheckedLikeTheQuery() throws Exception {
		refused("{\"operation\":\"get\",\"mode\":\"loop\",\"count\":10,\"pattern\":\"zipf\"}", "pattern");
		refused("{\"operation\":\"incr\",\"mode\":\"loop\",\"count\":10,\"keys\":5}", "keys");
	}

	private void refused(String body, String parameter) throws Exception {
		this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content(body))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value(parameter));
	}

	@Test
	void aRunWithoutKeyParametersSaysNothingAboutAKeySpace() throws Exception {
		okBody("/pipeset/100", jsonPath("$.verified").value(100), jsonPath("$.keySpace").doesNotExist());
	}

	private long othersLookups() {
		return NodeStats.calls(this.server.process(), "zrange")
				+ NodeStats.calls(this.server.process(), "zrangebyscore");
	}

}
