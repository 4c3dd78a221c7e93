package dev.pipelininglab.reliability;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.OwnRedis;
import io.lettuce.core.KillArgs;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run that starts while the app's connections are being made again (Redis dropped them;
 * after start, a handshake answered just as it timed out) waits for them, within the
 * command timeout, instead of answering 503 "Currently not connected": Lettuce rejects
 * commands at once while disconnected, so what it refused was never sent and is sent once
 * the connection is back. A Redis that is down still answers 503 at once
 * ({@code RedisKilledMidRunTests}).
 */
@OwnRedis
class ReconnectingConnectionTests extends MockMvcOnEmptyOwnRedis {

	@Test
	void aRunStartedRightAfterRedisDroppedEveryConnectionOfTheAppWaitsForThemAndRuns() throws Exception {
		send("/pipeset/100", 200);
		send("/loopget/100", 200);
		for (int i = 0; i < 5; i++) {
			assertThat(this.admin.sync().clientKill(KillArgs.Builder.typeNormal().skipme())).isPositive();
			assertThat(JsonPath.<Integer>read(send("/pipeset/1000", 200).getContentAsString(), "$.verified"))
				.isEqualTo(1000);
			assertThat(this.admin.sync().clientKill(KillArgs.Builder.typeNormal().skipme())).isPositive();
			assertThat(JsonPath.<Integer>read(send("/loopget/100", 200).getContentAsString(), "$.hits")).isEqualTo(100);
		}
	}

}
