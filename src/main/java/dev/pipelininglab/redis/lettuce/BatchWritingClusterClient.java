package dev.pipelininglab.redis.lettuce;

import java.time.Duration;
import java.util.function.Supplier;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.json.JsonParser;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;

/** A {@link RedisClusterClient} whose node connections write a flush as one message. */
class BatchWritingClusterClient extends RedisClusterClient {

	BatchWritingClusterClient(ClientResources resources, Iterable<RedisURI> uris) {
		super(resources, uris);
	}

	@Override
	protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
			PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout, Supplier<JsonParser> parser) {
		return super.newStatefulRedisConnection(BatchWritingNodeWriter.wrap(channelWriter, pushHandler, getOptions()),
				pushHandler, codec, timeout, parser);
	}

}
