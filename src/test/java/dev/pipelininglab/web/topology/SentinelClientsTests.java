package dev.pipelininglab.web.topology;

import org.springframework.test.context.TestPropertySource;
import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;

/**
 * Clients, connections and connectors on master + replica + 3 sentinels, Lettuce reading
 * from the replica as the sentinel profile does (Jedis always reads from the master).
 */
@SharedRedis(RedisTopology.SENTINEL)
@TestPropertySource(properties = "spring.data.redis.lettuce.read-from=replica-preferred")
@SlowTest
class SentinelClientsTests extends ClientsContract {

}
