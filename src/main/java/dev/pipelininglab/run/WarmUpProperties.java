package dev.pipelininglab.run;

import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How much a run sends, untimed and on keys of its own, before its clock starts, under
 * {@code lab.warm-up.*}.
 *
 * @param roundTrips the most round trips one warm-up makes, so loops and short batches
 * warm up quickly (through an added round trip, 50 at most)
 * @param items the items a warm-up sends at least (as many as the run has, when fewer):
 * enough to warm the run's connection and whatever the JIT has not compiled yet
 * @param jitItems the items a mode must have sent in this process before its code is
 * fully compiled: on 2 cores a fresh app's first million pipelined SETs ran at about 60%
 * of its later speed after a 10,000-item warm-up, and at full speed after 300,000. Until
 * a mode and operation have sent that many, their warm-up makes up the difference
 */
@ConfigurationProperties("lab.warm-up")
@Validated
public record WarmUpProperties(@DefaultValue("1000") @Positive int roundTrips,
		@DefaultValue("10000") @Positive int items, @DefaultValue("300000") @PositiveOrZero int jitItems) {

}
