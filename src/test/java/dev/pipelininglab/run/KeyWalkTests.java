package dev.pipelininglab.run;

import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
		int[] last = walk.lastWriters(first(400));
		for (int key = 0; key < 50; key++) {
			int expected = -1;
			for (int item = 0; item < 400; item++) {
				if (walk.index(item) == key) {
					expected = item;
				}
			}
			assertThat(last[key]).isEqualTo(expected);
		}
		assertThat(walk.distinct(first(400)))
			.isEqualTo(java.util.Arrays.stream(last).filter((item) -> item >= 0).count());
	}

	@Test
	void everyPatternStaysInsideTheKeySpace() {
		for (KeyWalk.Pattern pattern : KeyWalk.Pattern.values()) {
			for (long size : new long[] { 1, 2, 7, 1000 }) {
				KeyWalk walk = new KeyWalk(size, pattern, 11);
				assertThat(LongStream.range(0, 10_000).map(walk::index).allMatch((index) -> index >= 0 && index < size))
					.as("%s over %d keys", pattern, size)
					.isTrue();
			}
		}
	}

	@Test
	void onlyASequentialWalkOverAtLeastTheItemsNeverRepeatsAKey() {
		assertThat(new KeyWalk(100, KeyWalk.Pattern.SEQUENTIAL, 1).repeatsKeys(100)).isFalse();
		assertThat(new KeyWalk(100, KeyWalk.Pattern.SEQUENTIAL, 1).repeatsKeys(101)).isTrue();
		assertThat(new KeyWalk(1_000_000, KeyWalk.Pattern.UNIFORM, 1).repeatsKeys(2)).isTrue();
		assertThat(new KeyWalk(1_000_000, KeyWalk.Pattern.GAUSSIAN, 1).repeatsKeys(2)).isTrue();
	}

	@Test
	void aSequentialWalkThatNeverRepeatsTouchesAsManyKeysAsItems() {
		assertThat(new KeyWalk(1000, KeyWalk.Pattern.SEQUENTIAL, 1).distinct(first(600))).isEqualTo(600);
		assertThat(new KeyWalk(100, KeyWalk.Pattern.SEQUENTIAL, 1).distinct(first(600))).isEqualTo(100);
	}

	@Test
	void splittingTheItemsAmongClientsChangesNeitherTheKeysTouchedNorTheLastWriters() {
		KeyWalk walk = new KeyWalk(300, KeyWalk.Pattern.UNIFORM, 5);
		List<ClientThreads.Reach> clients = List.of(new ClientThreads.Reach(0, 250), new ClientThreads.Reach(250, 500),
				new ClientThreads.Reach(500, 1000));
		assertThat(walk.distinct(clients)).isEqualTo(walk.distinct(first(1000)));
		assertThat(walk.lastWriters(clients)).containsExactly(walk.lastWriters(first(1000)));
	}

	@Test
	void aKeySpaceHasAtLeastOneKey() {
		assertThatIllegalArgumentException().isThrownBy(() -> new KeyWalk(0, KeyWalk.Pattern.SEQUENTIAL, 1));
	}

	@Test
	void aReadBackReplaysAtMostAnIntsWorthOfKeys() {
		KeyWalk walk = new KeyWalk(Integer.MAX_VALUE + 1L, KeyWalk.Pattern.UNIFORM, 1);
		assertThatIllegalArgumentException().isThrownBy(() -> walk.lastWriters(first(10)));
	}

	@Test
	void eachPatternIsNamedAsTheParameterWritesIt() {
		for (KeyWalk.Pattern pattern : KeyWalk.Pattern.values()) {
			assertThat(KeyWalk.Pattern.fromLabel(pattern.label())).contains(pattern);
		}
		assertThat(KeyWalk.Pattern.fromLabel("GAUSSIAN")).isEmpty();
	}

	/** Items {@code 0..count-1}, as one client sends them. */
	private static List<ClientThreads.Reach> first(long count) {
		return List.of(new ClientThreads.Reach(0, count));
	}

}
