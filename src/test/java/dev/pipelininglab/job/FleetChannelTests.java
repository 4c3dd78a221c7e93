package dev.pipelininglab.job;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.pipelininglab.job.FleetChannel.Signal;
import dev.pipelininglab.job.FleetChannel.Type;
import dev.pipelininglab.redis.KeySpace;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the fleet channel lets through, without Redis: a message signed with the fleet's
 * secret, fresh and new, once; nothing unsigned, signed with another secret, altered,
 * stale or seen before (FleetRunTests sends such messages to real instances).
 */
class FleetChannelTests {

	private final FleetChannel channel = channel(FleetRunTests.SECRET);

	@Test
	void aMessageSignedWithTheFleetsSecretIsTakenOnceAndItsReplayIsDropped() {
		byte[] go = sealed(this.channel,
				new Signal(Type.GO, "run-1", "leader", System.currentTimeMillis(), null, null, 123L, null, null, null));
		Signal taken = this.channel.open(go);
		assertThat(taken).isNotNull();
		assertThat(taken.type()).isEqualTo(Type.GO);
		assertThat(taken.at()).isEqualTo(123L);
		assertThat(this.channel.open(go)).isNull();
		// The same type from the same sender in another run is another message.
		assertThat(this.channel.open(sealed(this.channel, Signal.of(Type.GO, "run-2", "leader").sentNow())))
			.isNotNull();
	}

	@Test
	void unsignedOtherwiseSignedOrAlteredMessagesAreDropped() {
		String json = "{\"type\": \"STOP\", \"run\": \"run-1\", \"instance\": \"leader\", \"sentAt\": "
				+ System.currentTimeMillis() + "}";
		assertThat(this.channel.open(json.getBytes(StandardCharsets.UTF_8))).isNull();
		Signal stop = Signal.of(Type.STOP, "run-1", "leader").sentNow();
		assertThat(this.channel.open(sealed(channel("another secret of at least 32 bytes, not the fleet's"), stop)))
			.isNull();
		String sealed = this.channel.seal(stop);
		String altered = sealed.replace("run-1", "run-2");
		assertThat(altered).isNotEqualTo(sealed);
		assertThat(this.channel.open(altered.getBytes(StandardCharsets.UTF_8))).isNull();
		assertThat(this.channel.open(sealed.getBytes(StandardCharsets.UTF_8))).isNotNull();
	}

	@Test
	void aMessageSentLongerThanTheJoinTimeoutAgoIsDropped() {
		long eleven = System.currentTimeMillis() - Duration.ofSeconds(11).toMillis();
		assertThat(this.channel.open(sealed(this.channel,
				new Signal(Type.JOIN, "run-1", "member", eleven, null, null, null, null, null, null))))
			.isNull();
		long nine = System.currentTimeMillis() - Duration.ofSeconds(9).toMillis();
		assertThat(this.channel.open(sealed(this.channel,
				new Signal(Type.JOIN, "run-1", "member", nine, null, null, null, null, null, null))))
			.isNotNull();
	}

	private static byte[] sealed(FleetChannel channel, Signal signal) {
		return channel.seal(signal).getBytes(StandardCharsets.UTF_8);
	}

	private static FleetChannel channel(String secret) {
		return new FleetChannel(new StringRedisTemplate(), JsonMapper.builder().build(), new KeySpace("pipelining-lab"),
				new FleetProperties(true, 16, Duration.ofSeconds(10), secret));
	}

}
