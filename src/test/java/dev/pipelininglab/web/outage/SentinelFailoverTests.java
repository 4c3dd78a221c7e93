package dev.pipelininglab.web.outage;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.Outages;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SentinelRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The master of a sentinel topology of the test's own dies: while the sentinels promote
 * the replica, every request answers within the Redis timeout (200, or a 503 problem);
 * after the promotion the app follows the new master without a restart and the next
 * pipelined run succeeds.
 */
@OwnRedis(RedisTopology.SENTINEL)
@ExtendWith(OutputCaptureExtension.class)
@SlowTest
class SentinelFailoverTests extends MockMvcThroughFailover {

	private static final Logger log = LoggerFactory.getLogger(SentinelFailoverTests.class);

	@Autowired
	SentinelRedis sentinel;

	@Test
	void pipelinesSurviveTheMasterDying(CapturedOutput output) throws Exception {
		FailoverProbe.writeDemoData(this.mvc);
		RedisServerProcess dead = this.sentinel.master();
		FailoverProbe probe = new FailoverProbe(this.mvc, List.of("/pipeset/2000", "/pipeget/2000",
				"/compare/set/2000?variants=async,multi-key,script", "/loopget/20", "/piperpop/100"));

		long killed = System.nanoTime();
		Outages.kill(dead);
		CompletableFuture<RedisServerProcess> promoted = CompletableFuture
			.supplyAsync(() -> this.sentinel.awaitNewMaster(dead, Duration.ofSeconds(30)));
		probe.until(promoted);
		RedisServerProcess master = promoted.join();
		Duration promotedAfter = Duration.ofNanos(System.nanoTime() - killed);
		// The app learns of the switch from the sentinels' announcements; until it does,
		// requests still fail fast.
		FailoverProbe.Outcome recovered = probe.untilAnswer(FailoverProbe::wroteAgain, Duration.ofSeconds(15));
		Duration recoveredAfter = recovered.at();

		String next = probe.pipelinesAgain();

		log.info(
				"Sentinel failover: killed master {}; sentinels promoted {} after {} ms; first write through the app"
						+ " after {} ms. Requests meanwhile: {}\nNext pipelined run: {}",
				dead.port(), master.port(), promotedAfter.toMillis(), recoveredAfter.toMillis(), probe.report(), next);
		FailoverProbe.logTimings(log, "sentinel", "down-after-milliseconds", promotedAfter, recoveredAfter);
		assertThat(master).isSameAs(this.sentinel.replica());
		assertThat(recovered.status()).as("a write succeeded within 15 s of the promotion").isEqualTo(200);
		probe.assertAllAnsweredWithin(ANSWER_BOUND);
		// The switch is logged once, with both addresses, however many sentinels announce
		// it.
		String switched = "Sentinels switched the master of '" + SentinelRedis.MASTER_NAME + "' from 127.0.0.1:"
				+ dead.port() + " to 127.0.0.1:" + master.port();
		assertThat(output.getAll().split(java.util.regex.Pattern.quote(switched), -1)).hasSize(2);
	}

}
