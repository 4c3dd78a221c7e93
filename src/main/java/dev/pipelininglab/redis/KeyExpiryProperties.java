package dev.pipelininglab.redis;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How long what a run leaves in Redis stays there, under {@code lab.keys.*}.
 *
 * @param expireAfter every key a run leaves behind gets this expiry once the run is over
 * (untimed; a SET run with its own {@code ttl} keeps that), so a forgotten run does not
 * hold a shared server's memory for ever; {@code DELETE /keys} still removes everything
 * at once
 */
@ConfigurationProperties("lab.keys")
@Validated
public record KeyExpiryProperties(@DefaultValue("1h") @NotNull Duration expireAfter) {

	public KeyExpiryProperties {
		if (expireAfter.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new IllegalArgumentException("lab.keys.expire-after must be at least 1s, got " + expireAfter);
		}
	}

}
