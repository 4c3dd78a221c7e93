package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;

@SharedRedis
@SlowTest
class StandaloneEndpointTests extends EndpointContract {

}
