package dev.pipelininglab.run;

import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What a run sends, untimed and on keys of its own, before its clock starts.
 *
 * @param roundTrips the most round trips one warm-up makes (50 through an added RTT)
 * @param items the items a warm-up sends at least (as many as the run has, when fewer)
 * @param jitItems the items a mode and operation must have sent in this process before
 * their code is fully compiled; until then their warm-up makes up the difference
 * (docs/benchmark.md)
 */
public record WarmUpProperties(@DefaultValue("1000") @Positive int roundTrips,
		@DefaultValue("10000") @Positive int items, @DefaultValue("300000") @PositiveOrZero int jitItems) {

}
