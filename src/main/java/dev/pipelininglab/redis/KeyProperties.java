package dev.pipelininglab.redis;

import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The keys the lab owns: {@code lab.key-prefix}.
 *
 * @param keyPrefix every key the lab writes, reads or deletes starts with
 * {@code <keyPrefix>:}
 */
@ConfigurationProperties("lab")
@Validated
// No glob characters, so the SCAN pattern built from it never matches keys outside the
// prefix.
public record KeyProperties(@DefaultValue("pipelining-lab") @Pattern(regexp = "[A-Za-z0-9._-]{1,64}",
		message = "must be 1 to 64 letters, digits, '.', '_' or '-' (no glob characters)") String keyPrefix) {

}
