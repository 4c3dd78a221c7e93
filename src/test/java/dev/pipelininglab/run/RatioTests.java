package dev.pipelininglab.run;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A mixed run's sequence from the item index alone: each cycle's SETs, then its GETs
 * reading those SETs' keys in turn ({@code MixedRatioTests} counts it on a real Redis).
 */
class RatioTests {

	private final Ratio ratio = new Ratio(3, 5);

	@Test
	void eachCycleSendsItsSetsThenItsGets() {
		assertThat(LongStream.range(0, 9).mapToObj(this.ratio::isWrite).toList()).containsExactly(true, true, true,
				false, false, false, false, false, true);
	}

	@Test
	void aSetWorksOnItsOwnKey() {
		assertThat(this.ratio.keyItem(0)).isZero();
		assertThat(this.ratio.keyItem(9)).isEqualTo(9);
	}

	@Test
	void theGetsOfACycleReadItsSetsKeysInTurn() {
		// Cycle 0: SETs 0, 1, 2; GETs 3..7 read 0, 1, 2, 0, 1. Cycle 1 starts at 8.
		assertThat(LongStream.rangeClosed(3, 7).map(this.ratio::keyItem).toArray()).containsExactly(0, 1, 2, 0, 1);
		assertThat(this.ratio.keyItem(11)).isEqualTo(8);
	}

	@Test
	void theSetsAmongTheFirstItemsCountAPartCycleUpToItsSets() {
		assertThat(this.ratio.writesIn(0)).isZero();
		assertThat(this.ratio.writesIn(2)).isEqualTo(2);
		assertThat(this.ratio.writesIn(8)).isEqualTo(3);
		assertThat(this.ratio.writesIn(10)).isEqualTo(5);
		assertThat(this.ratio.writesIn(13)).isEqualTo(6);
	}

	@Test
	void theNthSetIsFoundWithoutWalkingTheItems() {
		for (long index = 0; index < 50; index++) {
			long item = this.ratio.writeItem(index);
			assertThat(this.ratio.isWrite(item)).isTrue();
			assertThat(this.ratio.writesIn(item)).as("SETs before it").isEqualTo(index);
		}
	}

	@Test
	void theDefaultIsMemtiersOneSetPerTenGets() {
		assertThat(Ratio.DEFAULT).isEqualTo(new Ratio(1, 10));
		assertThat(Ratio.DEFAULT.label()).isEqualTo("1:10");
		assertThat(Ratio.parse("1:10")).contains(Ratio.DEFAULT);
	}

	@Test
	void aRatioIsTwoWholeNumbersFromOneToAThousand() {
		assertThat(Ratio.parse("1000:1")).contains(new Ratio(1000, 1));
		assertThat(Ratio.parse("0:10")).isEmpty();
		assertThat(Ratio.parse("1:1001")).isEmpty();
		assertThat(Ratio.parse("1:")).isEmpty();
		assertThat(Ratio.parse(" 1:10")).isEmpty();
		assertThat(Ratio.parse("1.5:10")).isEmpty();
		assertThatIllegalArgumentException().isThrownBy(() -> new Ratio(0, 1));
		assertThatIllegalArgumentException().isThrownBy(() -> new Ratio(1, Ratio.MAX_SIDE + 1));
	}

}
