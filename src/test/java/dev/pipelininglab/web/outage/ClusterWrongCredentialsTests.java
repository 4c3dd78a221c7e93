package dev.pipelininglab.web.outage;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;

/** {@link WrongCredentials} on the shared cluster. */
@SlowTest
@SharedRedis(RedisTopology.CLUSTER)
class ClusterWrongCredentialsTests extends WrongCredentials {

}
