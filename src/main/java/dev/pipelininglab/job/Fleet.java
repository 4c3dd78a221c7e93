package dev.pipelininglab.job;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pipelininglab.run.Bottleneck;
import dev.pipelininglab.run.Latency;
import org.jspecify.annotations.Nullable;

/**
 * A fleet run's part of its record: who was asked, who joined, each member's share and
 * figures, and who stopped.
 *
 * @param asked the instances the request asked for, this one included
 * @param instances the instances that joined and ran their share to the end
 * @param partial true when fewer than {@code asked} ran to the end: the results are those
 * of the members that did, never the whole run's
 * @param stopped members that joined but gave no result by their deadline, or stopped
 * @param coordination which Redis commands coordinated the fleet, all outside the timed
 * passes
 * @param members the instance that took the request first, then the others in the order
 * they joined
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Fleet(int asked, int instances, @Nullable Boolean partial, @Nullable List<String> stopped,
		String coordination, List<Member> members) {

	/**
	 * @param share the items it sends, {@code from} inclusive, {@code to} exclusive;
	 * absent while members are still joining
	 * @param written keys its pass wrote (writes only)
	 * @param verified keys of its share read back as written
	 * @param latency round trips of its pass, whose histograms the result adds
	 * @param startSkewMillis how much later than the first member it started its timed
	 * pass, by Redis' own {@code TIME}
	 * @param stopped why it gave no result, when it gave none
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Member(String instance, @Nullable Share share, @Nullable Long written, @Nullable Long verified,
			@Nullable Latency latency, @Nullable Double opsPerSecond, @Nullable Double startSkewMillis,
			@Nullable Bottleneck limitedBy, @Nullable String stopped) {

		static Member joined(String instance) {
			return new Member(instance, null, null, null, null, null, null, null, null);
		}

	}

	public record Share(long from, long to) {
	}

}
