package dev.pipelininglab.job;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Fleet runs, under {@code lab.fleet.*}: instances sharing a Redis and a key prefix that
 * run one measurement together ({@code POST /runs} with {@code instances}).
 *
 * @param join whether this instance answers other instances' calls and may lead a fleet
 * run itself; off, it neither listens nor leads
 * @param maxInstances the most instances one fleet run may ask for
 * @param joinTimeout how long the instance that took the request waits for members to
 * join, and for them to be ready to start; a fleet message older than this is dropped
 * @param secret what every message on the fleet channel is signed with (HMAC-SHA256),
 * shared by all the fleet's instances: whoever can PUBLISH on the Redis cannot take part
 * without it
 */
public record FleetProperties(@DefaultValue("false") boolean join,
		@DefaultValue("16") @Min(1) @Max(256) int maxInstances, @DefaultValue("10s") @NotNull Duration joinTimeout,
		@Nullable String secret) {

	/** A shorter HMAC-SHA256 key is weaker than the hash. */
	static final int MIN_SECRET_BYTES = 32;

	public FleetProperties {
		if (joinTimeout.toMillis() < 100 || joinTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
			throw new IllegalArgumentException(
					"lab.fleet.join-timeout (" + joinTimeout + ") must be between 100ms and 10m");
		}
		int bytes = (secret != null) ? secret.getBytes(StandardCharsets.UTF_8).length : 0;
		if ((join || bytes > 0) && bytes < MIN_SECRET_BYTES) {
			throw new IllegalArgumentException("lab.fleet.join=true needs lab.fleet.secret (LAB_FLEET_SECRET) of at"
					+ " least " + MIN_SECRET_BYTES + " bytes (it has " + bytes + "), the same on every instance of the"
					+ " fleet, e.g. from `openssl rand -base64 32`: fleet messages are signed with it, so that only"
					+ " the fleet's own instances can call, join, report or stop a fleet run");
		}
	}

	@Override
	public String toString() {
		return "FleetProperties[join=" + this.join + ", maxInstances=" + this.maxInstances + ", joinTimeout="
				+ this.joinTimeout + ", secret=" + ((this.secret != null) ? "(set)" : "(none)") + "]";
	}

}
