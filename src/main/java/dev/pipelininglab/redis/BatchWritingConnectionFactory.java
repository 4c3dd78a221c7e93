package dev.pipelininglab.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;

import org.springframework.beans.DirectFieldAccessor;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A connection factory whose standalone and sentinel clients write each pipeline flush as
 * one message (see {@link BatchWritingEndpoint}). Cluster clients create their node
 * endpoints internally and stay as Lettuce makes them.
 */
class BatchWritingConnectionFactory extends LettuceConnectionFactory {

	BatchWritingConnectionFactory(RedisConfiguration configuration, LettuceClientConfiguration clientConfiguration) {
		super(configuration, clientConfiguration);
	}

	@Override
	protected AbstractRedisClient createClient() {
		AbstractRedisClient client = super.createClient();
		ClientResources resources = getClientConfiguration().getClientResources().orElse(null);
		if (client.getClass() != RedisClient.class || resources == null) {
			return client;
		}
		// Spring Data Redis builds the URI (credentials, TLS, client name, database,
		// sentinels) privately and
		// reads it back from the client the same way in its StandaloneConnectionProvider.
		RedisURI uri = (RedisURI) new DirectFieldAccessor(client).getPropertyValue("redisURI");
		BatchWritingRedisClient batching = new BatchWritingRedisClient(resources, uri);
		batching.setOptions(client.getOptions());
		client.shutdown();
		return batching;
	}

}
