package dev.pipelininglab.redis;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What keeps a run from hurting a shared Redis, under {@code lab.safety.*}: the memory
 * preflight every run passes before it writes a key ({@link Preflight}).
 *
 * @param allowEviction let a run that may push a server past {@code maxmemory} run even
 * when its {@code maxmemory-policy} would then evict keys that are not the lab's: for an
 * operator who owns the server and wants to see eviction happen
 * @param preflight check that a run fits before it writes anything; off only for a Redis
 * you own, e.g. to see how Redis refuses writes once full ({@code noeviction})
 * @param marginPercent the share of a server's memory limit ({@code maxmemory}, else
 * {@code total_system_memory}) a run must leave free beside its estimate: client buffers,
 * replication backlog, the estimate's own error and, without {@code maxmemory}, the rest
 * of the machine
 */
@ConfigurationProperties("lab.safety")
@Validated
public record SafetyProperties(@DefaultValue("false") boolean allowEviction, @DefaultValue("true") boolean preflight,
		@DefaultValue("10") @Min(0) @Max(50) int marginPercent) {

}
