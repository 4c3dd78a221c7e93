package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KeySpaceTests {

	private final KeySpace keys = new KeySpace("lab-ü");

	@ParameterizedTest
	@ValueSource(longs = { 0, 7, 9, 10, 99, 100, 123_456_789, Long.MAX_VALUE })
	void bytesAreTheUtf8OfTheNamesEveryVariantUses(long index) {
		assertThat(this.keys.keyBytes(index)).isEqualTo(this.keys.key(index).getBytes(StandardCharsets.UTF_8));
		assertThat(this.keys.valueBytes(index, 0))
			.isEqualTo(this.keys.value(index, 0).getBytes(StandardCharsets.UTF_8));
		assertThat(this.keys.hashTagged().keyBytes(index))
			.isEqualTo(this.keys.hashTagged().key(index).getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void namesAreThePrefixedPattern() {
		assertThat(this.keys.key(42)).isEqualTo("lab-ü:key:42");
		assertThat(this.keys.value(42, 0)).isEqualTo("value-42");
	}

	@Test
	void negativeIndexesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.keys.keyBytes(-1));
	}

}
