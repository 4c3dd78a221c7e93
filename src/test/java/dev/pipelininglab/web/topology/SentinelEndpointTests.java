package dev.pipelininglab.web.topology;

import java.util.List;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SentinelRedis;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The endpoint contract on master + replica + 3 sentinels, reading from the replica as
 * the sentinel profile does.
 */
@SharedRedis(RedisTopology.SENTINEL)
@TestPropertySource(properties = "spring.data.redis.lettuce.read-from=replica-preferred")
@SlowTest
class SentinelEndpointTests extends EndpointContract {

	@Autowired
	SentinelRedis sentinel;

	@Test
	void getsAreServedByTheReplicaAndWritesByTheMaster() throws Exception {
		RedisServerProcess master = this.sentinel.currentMaster();
		RedisServerProcess replica = this.sentinel.dataNodes()
			.stream()
			.filter((node) -> node != master)
			.findFirst()
			.orElseThrow();
		ReadsAndWrites.assertReadsFromReplicasAndWritesToMasters(this.mvc, List.of(master), List.of(replica));
	}

}
