package dev.pipelininglab.web.outage;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;

/** {@link WrongCredentials} on the shared cluster. */
@SharedRedis(RedisTopology.CLUSTER)
class ClusterWrongCredentialsTests extends WrongCredentials {

}
