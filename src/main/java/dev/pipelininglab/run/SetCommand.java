package dev.pipelininglab.run;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.pipelininglab.redis.MemoryShape;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;

/** SET: one key per item, written with the item's value and, when asked, an expiry. */
final class SetCommand extends Command
		implements Command.MultiKey, Command.Scripted, Command.Reactive, Command.Verified, Command.Expiring {

	SetCommand() {
		super("SET", true, null);
	}

	@Override
	void send(RedisConnection connection, Pass pass, long item) {
		Expiration expiration = pass.expiration();
		if (expiration == null) {
			connection.stringCommands().set(pass.keyBytes(item), pass.valueBytes(item));
		}
		else {
			connection.stringCommands()
				.set(pass.keyBytes(item), pass.valueBytes(item), SetCondition.upsert(), expiration);
		}
	}

	@Override
	void loop(StringRedisTemplate template, Pass pass, long item, Tally tally) {
		if (pass.spec().ttl() != null) {
			template.opsForValue().set(pass.key(item), pass.value(item), pass.spec().ttl());
		}
		else {
			template.opsForValue().set(pass.key(item), pass.value(item));
		}
		// SET answers OK or throws.
		tally.value(null);
	}

	@Override
	RedisFuture<?> async(RedisClusterAsyncCommands<byte[], byte[]> commands, Pass pass, long item, byte[] key) {
		SetArgs expiry = pass.setArgs();
		return (expiry != null) ? commands.set(key, pass.valueBytes(item), expiry)
				: commands.set(key, pass.valueBytes(item));
	}

	@Override
	public void multiKey(StringRedisTemplate template, Pass pass, long from, long to, Tally tally) {
		Map<String, String> entries = new LinkedHashMap<>();
		for (long i = from; i < to; i++) {
			entries.put(pass.key(i), pass.value(i));
		}
		template.opsForValue().multiSet(entries);
		tally.acknowledged(to - from);
	}

	@Override
	public String multiKeyName() {
		return "MSET";
	}

	@Override
	public String script() {
		return "for i, key in ipairs(KEYS) do redis.call('SET', key, ARGV[i]) end return #KEYS";
	}

	@Override
	public byte[][] scriptArguments(Pass pass, long from, long to) {
		return arguments(null, from, to, pass::keyBytes, pass::valueBytes);
	}

	@Override
	public Mono<?> reactive(ReactiveRedisTemplate<byte[], byte[]> template, Pass pass, long item) {
		Duration ttl = pass.spec().ttl();
		return (ttl != null) ? template.opsForValue().set(pass.keyBytes(item), pass.valueBytes(item), ttl)
				: template.opsForValue().set(pass.keyBytes(item), pass.valueBytes(item));
	}

	@Override
	Footprint footprint(RunSpec base, int variants, boolean prepared) {
		// Every variant rewrites the same keys.
		return new Footprint(MemoryShape.STRING, base.workload().distinctKeys(base.count()));
	}

}
