package dev.pipelininglab.redis;

import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The keys the lab owns: {@code lab.key-prefix}. Connections are configured with Spring
 * Boot's {@code spring.data.redis.*} properties, not under {@code lab.*}.
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with
 * {@code <keyPrefix>:}
 */
@ConfigurationProperties("lab")
@Validated
public record KeyProperties(
		// Restricted so the SCAN pattern built from it can never match keys outside the
		// prefix.
		@DefaultValue("pipelining-lab") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
				message = "must be 1 to 64 letters, digits, '.', '_' or '-' (no glob characters)") String keyPrefix) {

}
