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
	}

	@Test
	void rejectsWhatItCannotRead() {
		for (String text : new String[] { "", "buffered", "buffered-", "buffered-0", "buffered--3", "buffered-x",
				"flush", "buffered-99999999999", "buffered-1000001",
				// Exactly as written, as every name the lab reads: no spaces, no other
				// case.
				" Buffered-64 ", "buffered-64 ", "Flush-On-Close", "flush-on-close\u0000" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> FlushPolicy.valueOf(text))
				.withMessageContaining("flush-each-command, flush-on-close or buffered-<n>");
		}
	}

}
