package dev.pipelininglab.web.topology;

import dev.pipelininglab.testsupport.SharedRedis;

/** Clients, connections and connectors on one standalone Redis. */
@SharedRedis
class StandaloneClientsTests extends ClientsContract {

}
