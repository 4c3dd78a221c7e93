package dev.pipelininglab.web;

import dev.pipelininglab.testsupport.SharedRedis;

@SharedRedis
class StandaloneEndpointTests extends EndpointContract {

}
