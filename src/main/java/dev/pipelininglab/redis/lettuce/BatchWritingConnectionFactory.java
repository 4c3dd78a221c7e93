package dev.pipelininglab.redis.lettuce;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;

import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** A connection factory whose clients write each pipeline flush as one message. */
public class BatchWritingConnectionFactory extends LettuceConnectionFactory {

	public BatchWritingConnectionFactory(RedisConfiguration configuration,
			LettuceClientConfiguration clientConfiguration) {
		super(configuration, clientConfiguration);
	}

	@Override
	protected AbstractRedisClient createClient() {
		AbstractRedisClient client = super.createClient();
		ClientResources resources = getClientConfiguration().getClientResources().orElse(null);
		if (resources == null) {
			return client;
		}
		if (client.getClass() == RedisClusterClient.class) {
			// Spring Data Redis sets the cluster client's options after building it, so
			// they are copied over.
			@SuppressWarnings("unchecked")
			Iterable<RedisURI> uris = (Iterable<RedisURI>) PrivateState.initialUris(client);
			BatchWritingClusterClient batching = new BatchWritingClusterClient(resources, uris);
			batching.setOptions((ClusterClientOptions) client.getOptions());
			client.shutdown();
			return batching;
		}
		if (client.getClass() != RedisClient.class) {
			return client;
		}
		// Spring Data Redis builds the URI privately and reads it back the same way.
		BatchWritingRedisClient batching = new BatchWritingRedisClient(resources, PrivateState.redisUri(client));
		batching.setOptions(client.getOptions());
		client.shutdown();
		return batching;
	}

}
