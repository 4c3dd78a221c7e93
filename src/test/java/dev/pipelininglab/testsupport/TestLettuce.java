package dev.pipelininglab.testsupport;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import org.jspecify.annotations.Nullable;

/**
 * One Lettuce client for the tests' own look at the servers they start (never the app's
 * connections): made on first use, shared by the whole test run, and shut down with it.
 */
public final class TestLettuce {

	private static @Nullable RedisClient client;

	private TestLettuce() {
	}

	public static synchronized RedisClient client() {
		if (client == null) {
			RedisClient created = RedisClient.create();
			Runtime.getRuntime()
				.addShutdownHook(new Thread(() -> created.shutdown(Duration.ZERO, Duration.ofSeconds(2))));
			client = created;
		}
		return client;
	}

}
