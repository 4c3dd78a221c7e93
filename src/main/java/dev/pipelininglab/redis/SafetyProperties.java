package dev.pipelininglab.redis;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The memory preflight every run passes before it writes a key, under
 * {@code lab.safety.*}.
 *
 * @param allowEviction run even when the {@code maxmemory-policy} could evict keys that
 * are not the lab's
 * @param preflight check that a run fits before it writes anything
 * @param marginPercent the share of the memory limit a run must leave free beside its
 * estimate
 */
public record SafetyProperties(@DefaultValue("false") boolean allowEviction, @DefaultValue("true") boolean preflight,
		@DefaultValue("10") @Min(0) @Max(50) int marginPercent) {

}
