package dev.pipelininglab.redis;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How the commands of blocking template calls get a connection ({@code connection=}).
 */
public enum Sharing {

	/**
	 * Spring Boot's default with Lettuce: every thread's calls go over one shared native
	 * connection, on which Lettuce pipelines them across threads.
	 */
	SHARED,

	/**
	 * Every call borrows a dedicated connection from the pool and gives it back:
	 * {@code shareNativeConnection=false} with Lettuce, the only way Jedis works.
	 */
	POOLED;

	@JsonValue
	public String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	public static Optional<Sharing> fromLabel(String label) {
		return Arrays.stream(values()).filter((sharing) -> sharing.label().equals(label)).findFirst();
	}

	@Override
	public String toString() {
		return label();
	}

}
