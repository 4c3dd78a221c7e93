package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long what a run leaves in Redis stays there, under {@code lab.keys.*}.
 *
 * @param expireAfter the expiry every key a run leaves behind gets once the run is over
 */
public record KeyExpiryProperties(@DefaultValue("1h") @NotNull Duration expireAfter) {

	public KeyExpiryProperties {
		if (expireAfter.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("lab.keys.expire-after must be at least 1s, got " + expireAfter);
		}
	}

}
