package dev.pipelininglab.job;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.run.RunCancelledException;
import dev.pipelininglab.run.RunResult;
import dev.pipelininglab.run.RunSpec;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * The channel fleet runs are coordinated on, {@code <prefix>:fleet}, and Redis' clock
 * they start by. Anyone who can PUBLISH on the Redis can write to the channel, so only a
 * message signed with {@code lab.fleet.secret} (HMAC-SHA256 over its JSON, which names
 * the run, the type, the sender and when it was sent), sent within
 * {@code lab.fleet.join-timeout} and not seen before (the same run, type and sender) is
 * read; the others are counted in a log line at most once a minute.
 */
@Component
class FleetChannel {

	private static final Logger log = LoggerFactory.getLogger(FleetChannel.class);

	private static final String MAC = "HmacSHA256";

	private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final String channel;

	private final @Nullable SecretKeySpec secret;

	private final long maxAgeMillis;

	/** When each message taken was sent, by run, type and sender, while it is fresh. */
	private final Map<String, Long> seen = new ConcurrentHashMap<>();

	private final AtomicLong dropped = new AtomicLong();

	private final AtomicLong loggedAt = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

	private volatile @Nullable RedisMessageListenerContainer listener;

	FleetChannel(StringRedisTemplate redis, JsonMapper json, KeySpace keys, FleetProperties settings) {
		this.redis = redis;
		this.json = json.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
		this.channel = keys.prefix() + ":fleet";
		String secret = settings.secret();
		this.secret = (secret != null && !secret.isEmpty())
				? new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), MAC) : null;
		this.maxAgeMillis = settings.joinTimeout().toMillis();
	}

	/** Stamped with this instance's clock and signed. */
	void publish(Signal signal) {
		this.redis.convertAndSend(this.channel, seal(signal.sentNow()));
	}

	String seal(Signal signal) {
		return sign("", this.json.writeValueAsString(signal));
	}

	/** The HMAC of {@code context} and {@code body} in hex, a dot, then {@code body}. */
	String sign(String context, String body) {
		return HexFormat.of().formatHex(mac(context + body)) + "." + body;
	}

	/** The body of what {@link #sign} made with the same context; else null. */
	@Nullable String verified(String context, String signed) {
		int dot = signed.indexOf('.');
		try {
			String body = signed.substring(dot + 1);
			return (dot > 0 && MessageDigest.isEqual(HexFormat.of().parseHex(signed, 0, dot), mac(context + body)))
					? body : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/** Null, and counted as dropped, unless signed with the secret, fresh and new. */
	@Nullable Signal open(byte[] message) {
		String body = verified("", new String(message, StandardCharsets.UTF_8));
		if (body == null) {
			return drop("not signed with this fleet's lab.fleet.secret");
		}
		Signal signal;
		try {
			signal = this.json.readValue(body, Signal.class);
		}
		catch (RuntimeException ex) {
			return drop("unreadable: " + ex.getMessage());
		}
		long now = System.currentTimeMillis();
		if (Math.abs(now - signal.sentAt()) > this.maxAgeMillis) {
			return drop("sent more than lab.fleet.join-timeout ago");
		}
		// Anything older is dropped as stale whatever this remembers.
		this.seen.values().removeIf((sent) -> now - sent > 2 * this.maxAgeMillis);
		if (this.seen.putIfAbsent(signal.run() + " " + signal.type() + " " + signal.instance(),
				signal.sentAt()) != null) {
			return drop("seen before: " + signal.type() + " of run " + signal.run() + " from " + signal.instance());
		}
		return signal;
	}

	/** Counted, and logged at most once a minute. */
	@Nullable Signal drop(String why) {
		this.dropped.incrementAndGet();
		long last = this.loggedAt.get();
		long now = System.nanoTime();
		if (now - last >= LOG_EVERY_NANOS && this.loggedAt.compareAndSet(last, now)) {
			log.warn("Dropped {} message(s) on {} since the last such line; the latest was {}",
					this.dropped.getAndSet(0), this.channel, why);
		}
		return null;
	}

	boolean signs() {
		return this.secret != null;
	}

	private byte[] mac(String body) {
		try {
			Mac mac = Mac.getInstance(MAC);
			mac.init(Objects.requireNonNull(this.secret, "lab.fleet.secret, required by lab.fleet.join=true"));
			return mac.doFinal(body.getBytes(StandardCharsets.UTF_8));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(MAC + " is part of every Java runtime", ex);
		}
	}

	long redisMicros() {
		return Objects.requireNonNull(this.redis
			.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time(TimeUnit.MICROSECONDS)));
	}

	/**
	 * Waits until Redis' clock reads {@code at}, as near as one {@code TIME} tells.
	 * @return Redis' clock at the start, for the skew between members
	 */
	long startAt(@Nullable Long at, BooleanSupplier cancelled) {
		long until = System.nanoTime() + (Objects.requireNonNull(at) - redisMicros()) * 1000;
		while (System.nanoTime() - until < 0) {
			if (cancelled.getAsBoolean()) {
				throw new RunCancelledException();
			}
			LockSupport.parkNanos(Math.min(until - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(100)));
		}
		return redisMicros();
	}

	/** The messages that pass {@link #open}, on the listener's threads. */
	void listen(Consumer<Signal> receiver) {
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(Objects.requireNonNull(this.redis.getConnectionFactory(),
				"StringRedisTemplate has a connection factory"));
		container.addMessageListener((message, pattern) -> {
			Signal signal = open(message.getBody());
			if (signal != null) {
				receiver.accept(signal);
			}
		}, ChannelTopic.of(this.channel));
		container.afterPropertiesSet();
		container.start();
		this.listener = container;
	}

	void stop() {
		RedisMessageListenerContainer container = this.listener;
		if (container != null) {
			container.stop();
		}
	}

	enum Type {

		CALL, JOIN, PLAN, READY, GO, RESULT, STOP

	}

	/**
	 * One fleet message; each type fills in what it carries ({@code spec} the CALL,
	 * {@code members} the PLAN, {@code at} by Redis' clock in microseconds);
	 * {@code sentAt}: the sender's clock in milliseconds, set as it is published.
	 */
	record Signal(Type type, String run, String instance, long sentAt, @Nullable RunSpec spec,
			@Nullable List<Fleet.Member> members, @Nullable Long at, @Nullable RunResult result,
			byte @Nullable [] histogram, @Nullable String problem) {

		static Signal of(Type type, String run, String instance) {
			return new Signal(type, run, instance, 0, null, null, null, null, null, null);
		}

		static byte @Nullable [] encode(@Nullable Histogram histogram) {
			if (histogram == null) {
				return null;
			}
			ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
			return Arrays.copyOf(buffer.array(), histogram.encodeIntoCompressedByteBuffer(buffer));
		}

		Signal sentNow() {
			return new Signal(this.type, this.run, this.instance, System.currentTimeMillis(), this.spec, this.members,
					this.at, this.result, this.histogram, this.problem);
		}

	}

}
