package dev.pipelininglab.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class FlushPolicyTests {

	@Test
	void writtenFormsRoundTrip() {
		for (String text : new String[] { "flush-each-command", "flush-on-close", "buffered-1", "buffered-1000",
				"buffered-1000000" }) {
			assertThat(FlushPolicy.valueOf(text)).hasToString(text);
		}
		assertThat(FlushPolicy.valueOf(" Buffered-64 ")).isEqualTo(FlushPolicy.buffered(64));
	}

	@Test
	void rejectsWhatItCannotRead() {
		for (String text : new String[] { "", "buffered", "buffered-", "buffered-0", "buffered--3", "buffered-x",
				"flush", "buffered-99999999999", "buffered-1000001" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> FlushPolicy.valueOf(text))
				.withMessageContaining("flush-each-command, flush-on-close or buffered-<n>");
		}
	}

}
