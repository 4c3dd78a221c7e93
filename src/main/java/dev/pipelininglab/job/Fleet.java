package dev.pipelininglab.job;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.run.Bottleneck;
import dev.pipelininglab.run.Latency;
import org.jspecify.annotations.Nullable;

/**
 * A fleet run's part of its record: who was asked, who joined, each member's share and
 * figures, and who stopped; docs/api.md says what each field means.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fleet(int asked, int instances, @Nullable Boolean partial, @Nullable List<String> stopped,
		String coordination, List<Member> members) {

	static final String COORDINATION = "Coordinated through the measured Redis, outside every timed pass: PUBLISH on"
			+ " <prefix>:fleet to call, join, share, get ready, start, report and stop, each message signed with"
			+ " lab.fleet.secret; TIME twice per member to start at one moment of Redis' clock and measure the skew;"
			+ " INFO read by the leader from the start to the last report, then every share read back by the leader"
			+ " alone.";

	/**
	 * {@code share}: {@code from} inclusive, {@code to} exclusive; absent while joining.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Member(String instance, @Nullable Share share, @Nullable Long written, @Nullable Long verified,
			@Nullable Latency latency, @Nullable Double opsPerSecond, @Nullable Double startSkewMillis,
			@Nullable Bottleneck limitedBy, @Nullable String stopped) {

		static Member of(String instance, @Nullable Share share) {
			return new Member(instance, share, null, null, null, null, null, null, null);
		}

	}

	public record Share(long from, long to) {
	}

}
