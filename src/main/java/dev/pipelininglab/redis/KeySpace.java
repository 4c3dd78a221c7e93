package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/** The one place demo keys and values are named, e.g. {@code <prefix>:key:<i>}. */
public final class KeySpace {

	public static final String HASH_TAG = "{lab}";

	private static final String VALUE_STEM = "value-";

	private static final String INDEX = "<i>";

	private static final byte[] VALUE_STEM_BYTES = VALUE_STEM.getBytes(StandardCharsets.US_ASCII);

	private static final byte[] FIELD_STEM_BYTES = "field:".getBytes(StandardCharsets.US_ASCII);

	private static final byte[] FILLER = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		.getBytes(StandardCharsets.US_ASCII);

	private final String prefix;

	private final String keyStem;

	private final String listKey;

	private final byte[] keyStemBytes;

	public KeySpace(String prefix) {
		this(prefix, prefix + ":key:", prefix + ":list");
	}

	private KeySpace(String prefix, String keyStem, String listKey) {
		this.prefix = prefix;
		this.keyStem = keyStem;
		this.listKey = listKey;
		this.keyStemBytes = keyStem.getBytes(StandardCharsets.UTF_8);
	}

	public KeySpace warmup() {
		return new KeySpace(this.prefix + ":warmup");
	}

	public KeySpace hashTagged() {
		String tagged = this.prefix + ":" + HASH_TAG;
		return new KeySpace(this.prefix, tagged + ":key:", tagged + ":list");
	}

	public String prefix() {
		return this.prefix;
	}

	public String key(long index) {
		return this.keyStem + index;
	}

	public byte[] keyBytes(long index) {
		return numbered(this.keyStemBytes, index);
	}

	public byte[] valueBytes(long index, int size) {
		if (size == 0) {
			return numbered(VALUE_STEM_BYTES, index);
		}
		byte[] value = new byte[size];
		byte[] stem = numbered(VALUE_STEM_BYTES, index);
		int head = Math.min(size, stem.length + 1);
		System.arraycopy(stem, 0, value, 0, Math.min(size, stem.length));
		if (head > stem.length) {
			value[stem.length] = '-';
		}
		// xorshift64* seeded from the index: every byte depends on the item, so a
		// read-back compares whole values.
		long state = (index + 1) * 0x9E3779B97F4A7C15L;
		for (int i = head; i < size;) {
			state ^= state >>> 12;
			state ^= state << 25;
			state ^= state >>> 27;
			long bits = state * 0x2545F4914F6CDD1DL;
			for (int chunk = 0; chunk < 10 && i < size; chunk++, i++) {
				value[i] = FILLER[(int) (bits & 63)];
				bits >>>= 6;
			}
		}
		return value;
	}

	public String value(long index, int size) {
		return (size == 0) ? VALUE_STEM + index : new String(valueBytes(index, size), StandardCharsets.US_ASCII);
	}

	public String field(long index) {
		return new String(fieldBytes(index), StandardCharsets.US_ASCII);
	}

	public byte[] fieldBytes(long index) {
		return numbered(FIELD_STEM_BYTES, index);
	}

	public String hashKey() {
		return this.prefix + ":hash";
	}

	public String setKey() {
		return this.prefix + ":set";
	}

	public String sortedSetKey() {
		return this.prefix + ":zset";
	}

	public String counterKey() {
		return this.prefix + ":counter";
	}

	public String listKey() {
		return this.listKey;
	}

	public static byte[] bytes(String key) {
		return key.getBytes(StandardCharsets.UTF_8);
	}

	public String keyPattern() {
		return this.keyStem + INDEX;
	}

	/** Items {@code from..to-1} of this layout's numbered keys. */
	public Range range(long from, long to) {
		return new Range(keyPattern(), from, to);
	}

	/**
	 * Keys a run may write, kept in its record so that any instance can give them an
	 * expiry should the run's own instance die: items {@code from..to-1} of a key pattern
	 * ({@link #keyPattern}), or one key when both are null.
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Range(String key, @Nullable Long from, @Nullable Long to) {

		public static Range of(String key) {
			return new Range(key, null, null);
		}

		/** What names the numbered keys of the pattern, or null when it is one key. */
		public @Nullable KeySpace keys() {
			if (this.from == null || !this.key.endsWith(INDEX)) {
				return null;
			}
			String stem = this.key.substring(0, this.key.length() - INDEX.length());
			return new KeySpace(stem, stem, stem);
		}

	}

	public String scanPattern() {
		return this.prefix + ":*";
	}

	private static byte[] numbered(byte[] stem, long index) {
		if (index < 0) {
			throw new IllegalArgumentException("index must not be negative: " + index);
		}
		int digits = 1;
		for (long rest = index / 10; rest > 0; rest /= 10) {
			digits++;
		}
		byte[] bytes = Arrays.copyOf(stem, stem.length + digits);
		long rest = index;
		for (int i = bytes.length - 1; i >= stem.length; i--) {
			bytes[i] = (byte) ('0' + (rest % 10));
			rest /= 10;
		}
		return bytes;
	}

}
