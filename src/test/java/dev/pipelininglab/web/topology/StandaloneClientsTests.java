package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.SlowTest;

/**
 * Clients, connections and connectors on one standalone Redis (23.8 s in a clean clone's
 * verify on a 2-core machine: over the fast loop's 15 s).
 */
@SharedRedis
@SlowTest
class StandaloneClientsTests extends ClientsContract {

}
