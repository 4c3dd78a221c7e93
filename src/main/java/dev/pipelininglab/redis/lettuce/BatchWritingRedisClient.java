package dev.pipelininglab.redis.lettuce;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.protocol.DefaultEndpoint;
import io.lettuce.core.resource.ClientResources;

/** A {@link RedisClient} whose connections write each pipeline flush as one message. */
class BatchWritingRedisClient extends RedisClient {

	BatchWritingRedisClient(ClientResources resources, RedisURI uri) {
		super(resources, uri);
	}

	@Override
	protected DefaultEndpoint createEndpoint() {
		return new BatchWritingEndpoint(getOptions(), getResources());
	}

}
