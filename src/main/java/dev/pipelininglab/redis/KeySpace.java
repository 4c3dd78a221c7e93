package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one place demo keys and values are named, so every variant of a run touches the
 * same keys with the same values: {@code <prefix>:key:<i>} holds {@code value-<i>}, and
 * {@code <prefix>:list} is the demo list.
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

	public String listKey() {
		return this.listKey;
	}

	public byte[] listKeyBytes() {
		return listKey().getBytes(StandardCharsets.UTF_8);
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
