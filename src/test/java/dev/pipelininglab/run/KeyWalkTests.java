package dev.pipelininglab.run;

import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The key walk is a pure function of seed and item: the same sequence however the items
 * are split, inside the key space, shaped as its pattern says.
 */
class KeyWalkTests {

	@Test
	void theSameSeedAndItemGiveTheSameKeyWhateverWasAskedBefore() {
		KeyWalk walk = new KeyWalk(1000, KeyWalk.Pattern.GAUSSIAN, 7);
		long[] forward = LongStream.range(0, 5000).map(walk::index).toArray();
		long[] backward = LongStream.range(0, 5000).map((item) -> 4999 - item).map(walk::index).toArray();
		for (int item = 0; item < 5000; item++) {
			assertThat(backward[4999 - item]).isEqualTo(forward[item]);
		}
		assertThat(new KeyWalk(1000, KeyWalk.Pattern.GAUSSIAN, 8).index(3)).isNotEqualTo(walk.index(3));
	}

	@Test
	void sequentialWrapsAroundTheKeySpace() {
		KeyWalk walk = new KeyWalk(3, KeyWalk.Pattern.SEQUENTIAL, 1);
		assertThat(LongStream.range(0, 7).map(walk::index).toArray()).containsExactly(0, 1, 2, 0, 1, 2, 0);
		assertThat(walk.repeatsKeys(7)).isTrue();
		assertThat(walk.repeatsKeys(3)).isFalse();
	}

	@Test
	void uniformSpreadsEvenlyInsideTheKeySpace() {
		KeyWalk walk = new KeyWalk(10, KeyWalk.Pattern.UNIFORM, 42);
		long[] perKey = new long[10];
		LongStream.range(0, 100_000).map(walk::index).forEach((index) -> perKey[(int) index]++);
		assertThat(LongStream.of(perKey).min().orElseThrow()).isGreaterThan(9_500L);
		assertThat(LongStream.of(perKey).max().orElseThrow()).isLessThan(10_500L);
	}

	@Test
	void gaussianPutsTwoThirdsOfTheItemsWithinOneDeviationOfTheMiddle() {
		KeyWalk walk = new KeyWalk(6000, KeyWalk.Pattern.GAUSSIAN, 7);
		long within = LongStream.range(0, 100_000)
			.map(walk::index)
			.filter((index) -> index >= 2000 && index < 4000)
			.count();
		assertThat(within).isBetween(67_000L, 69_500L);
		assertThat(LongStream.range(0, 100_000).map(walk::index).allMatch((index) -> index >= 0 && index < 6000))
			.isTrue();
	}

	@Test
	void theLastWriterOfEachKeyIsTheLastItemThatMapsToIt() {
		KeyWalk walk = new KeyWalk(50, KeyWalk.Pattern.UNIFORM, 3);
		int[] last = walk.lastWriters(400);
		for (int key = 0; key < 50; key++) {
			int expected = -1;
			for (int item = 0; item < 400; item++) {
				if (walk.index(item) == key) {
					expected = item;
				}
			}
			assertThat(last[key]).isEqualTo(expected);
		}
		assertThat(walk.distinct(400)).isEqualTo(java.util.Arrays.stream(last).filter((item) -> item >= 0).count());
	}

}
