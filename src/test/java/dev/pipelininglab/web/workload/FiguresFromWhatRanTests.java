package dev.pipelininglab.web.workload;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.RedisTestServers;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A run bounded by time or rate reports what its commands did, never what it was asked
 * for: a mix's SETs, GETs, hits and rates add up to the commands that ran, a walk reads
 * back the keys the items that ran wrote, a pace that would send nothing within the time
 * limit is refused up front, and the reactive SET sets the expiry it was given.
 */
@SharedRedis
class FiguresFromWhatRanTests extends MockMvcOnTestRedis {

	@Test
	void aTimedMixCountsItsSetsGetsAndHitsFromTheCommandsThatRan() throws Exception {
		long hitsBefore = NodeStats.keyspaceHits(RedisTestServers.standalone().process());

		DocumentContext answer = JsonPath.parse(okBody("/loopmixed/1000000?duration=1"));

		long ran = number(answer, "$.timeLimit.commandsRan");
		long sets = number(answer, "$.mix.sets");
		long gets = number(answer, "$.mix.gets");
		assertThat(ran).isPositive().isLessThan(1_000_000);
		assertThat(sets + gets).as("SETs and GETs").isEqualTo(ran);
		assertThat(number(answer, "$.written")).isEqualTo(sets);
		assertThat(number(answer, "$.mix.hits") + number(answer, "$.mix.misses")).as("hits and misses").isEqualTo(gets);
		// Every GET of the mix reads a key a SET of its cycle wrote before it.
		assertThat(number(answer, "$.mix.hits")).isEqualTo(gets)
			.isLessThanOrEqualTo(NodeStats.keyspaceHits(RedisTestServers.standalone().process()) - hitsBefore);
		double seconds = answer.read("$.elapsedMillis", Double.class) / 1000;
		assertThat(answer.read("$.mix.getsPerSecond", Double.class)).isCloseTo(gets / seconds, within(1.0));
		assertThat(answer.read("$.mix.getsPerSecond", Double.class))
			.isLessThan(answer.read("$.opsPerSecond", Double.class));
	}

	@Test
	void aTimedWalkReadsBackTheKeysOfTheItemsThatRanAndNothingWasOverwritten() throws Exception {
		DocumentContext answer = JsonPath.parse(okBody("/loopset/200000?keys=1000&duration=1"));

		assertThat(answer.read("$.timeLimit.endedRun", Boolean.class)).isTrue();
		long distinct = number(answer, "$.keySpace.distinctKeys");
		assertThat(distinct).isPositive().isLessThanOrEqualTo(1_000);
		assertThat(number(answer, "$.verified")).as("every key the items that ran wrote").isEqualTo(distinct);
		assertThat(answer.jsonString()).doesNotContain("overwritten");
	}

	@Test
	void aPaceThatWouldSendNothingWithinTheTimeLimitIsRefusedNamingTheRate() throws Exception {
		expectBad("/pipeset/10000?rate=1&duration=1", "rate", "would send nothing");
		expectBad("/sweep/set/10000?rate=50&duration=1&batchSizes=1,100", "rate", "would send nothing");
		// The loop's round trip is one command: at 50 a second it sends within the
		// second.
		okBody("/loopset/10000?rate=50&duration=1");
	}

	@Test
	void theReactiveSetSetsTheExpiryItWasGiven() throws Exception {
		okBody("/compare/set/100?variants=reactive&ttl=60");

		assertThat(this.redis.getExpire("pipelining-lab:key:0")).isBetween(1L, 60L);
		assertThat(this.redis.getExpire("pipelining-lab:key:99")).isBetween(1L, 60L);
	}

	@Test
	void emptyNumbersAndPaddedListEntriesAreMistakesNamingTheParameter() throws Exception {
		expectBad("/pipeset/10?duration=", "duration", "");
		expectBad("/pipeset/10?keys=", "keys", "");
		expectBad("/pipeset/10?rate=", "rate", "");
		expectBad("/compare/set/10?variants=loop, pipelined", "variants", "must not pad");
		expectBad("/sweep/set/10?batchSizes=1, 10", "batchSizes", "must not pad");
	}

	private static long number(DocumentContext answer, String path) {
		return answer.read(path, Number.class).longValue();
	}

}
