package dev.pipelininglab.web.outage;

import dev.pipelininglab.testsupport.RedisTopology;
import dev.pipelininglab.testsupport.SharedRedis;

/** {@link WrongCredentials} on the shared sentinel. */
@SharedRedis(RedisTopology.SENTINEL)
class SentinelWrongCredentialsTests extends WrongCredentials {

}
