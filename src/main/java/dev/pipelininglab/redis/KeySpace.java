package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one place demo keys and values are named, so every variant of a run touches the
 * same keys with the same values: {@code <prefix>:key:<i>} holds {@code value-<i>} (or,
 * with a value size, {@link #valueBytes(long, int) that many bytes derived from i}),
 * {@code <prefix>:list} is the demo list, and the commands that work on one key as
 * redis-benchmark's do (INCR, HSET, SADD, ZADD) have a key each.
 */
public final class KeySpace {

	/**
	 * The hash tag of {@link #hashTagged()} keys. Redis Cluster hashes only the part
	 * between the first braces, so every key carrying it lands in the same slot (and on
	 * the same master).
	 */
	public static final String HASH_TAG = "{lab}";

	private static final String VALUE_STEM = "value-";

	private static final byte[] VALUE_STEM_BYTES = VALUE_STEM.getBytes(StandardCharsets.US_ASCII);

	private static final byte[] FIELD_STEM_BYTES = "field:".getBytes(StandardCharsets.US_ASCII);

	/** 64 printable characters, so sized values read as text and survive a String. */
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

	/**
	 * Keys for untimed warm-up passes, under the same prefix so cleanup still finds them.
	 */
	public KeySpace warmup() {
		return new KeySpace(this.prefix + ":warmup");
	}

	/**
	 * The same keys with the hash tag after the prefix ({@code <prefix>:{lab}:key:<i>}),
	 * so that on a cluster all of them share one slot and a multi-key command over them
	 * needs no splitting. Still under the prefix, so cleanup finds them.
	 */
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

	/**
	 * The bytes of {@link #key(long)}, built without the intermediate String: pipelines
	 * ask for millions.
	 */
	public byte[] keyBytes(long index) {
		return numbered(this.keyStemBytes, index);
	}

	public String value(long index) {
		return VALUE_STEM + index;
	}

	public byte[] valueBytes(long index) {
		return numbered(VALUE_STEM_BYTES, index);
	}

	/**
	 * The value of item {@code index} at {@code size} bytes: {@code value-<i>-} followed
	 * by characters drawn from a generator seeded with {@code i}, cut to {@code size}.
	 * Every byte depends on the item, so a read-back compares whole values, and nothing
	 * but the one value is ever held. A size of 0 means the plain
	 * {@link #valueBytes(long)}.
	 */
	public byte[] valueBytes(long index, int size) {
		if (size == 0) {
			return valueBytes(index);
		}
		byte[] value = new byte[size];
		byte[] stem = numbered(VALUE_STEM_BYTES, index);
		int head = Math.min(size, stem.length + 1);
		System.arraycopy(stem, 0, value, 0, Math.min(size, stem.length));
		if (head > stem.length) {
			value[stem.length] = '-';
		}
		// xorshift64*, seeded from the index: cheap, and a different stream for every
		// item.
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

	/** {@link #valueBytes(long, int)} as text (it is ASCII). */
	public String value(long index, int size) {
		return (size == 0) ? value(index) : new String(valueBytes(index, size), StandardCharsets.US_ASCII);
	}

	public String field(long index) {
		return new String(fieldBytes(index), StandardCharsets.US_ASCII);
	}

	/** HSET: the field item {@code index} sets in {@link #hashKey()}. */
	public byte[] fieldBytes(long index) {
		return numbered(FIELD_STEM_BYTES, index);
	}

	/** The hash HSET runs fill, one field per item. */
	public String hashKey() {
		return this.prefix + ":hash";
	}

	/** The set SADD runs fill, one member (the item's value) per item. */
	public String setKey() {
		return this.prefix + ":set";
	}

	/**
	 * The sorted set ZADD runs fill: the item's value as member, its index as score.
	 */
	public String sortedSetKey() {
		return this.prefix + ":zset";
	}

	/** The counter INCR runs increment, once per item. */
	public String counterKey() {
		return this.prefix + ":counter";
	}

	public String listKey() {
		return this.listKey;
	}

	public byte[] listKeyBytes() {
		return bytes(listKey());
	}

	public static byte[] bytes(String key) {
		return key.getBytes(StandardCharsets.UTF_8);
	}

	/** A pattern for the numbered keys, for people reading answers and logs. */
	public String keyPattern() {
		return this.keyStem + "<i>";
	}

	/**
	 * The SCAN pattern for everything the lab owns; safe because the prefix holds no glob
	 * characters.
	 */
	public String scanPattern() {
		return this.prefix + ":*";
	}

	/** {@code stem} followed by the decimal digits of {@code index}. */
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
