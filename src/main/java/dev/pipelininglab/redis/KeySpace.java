package dev.pipelininglab.redis;

import java.nio.charset.StandardCharsets;

/**
 * The one place demo keys and values are named, so every variant of a run touches the same keys with the same
 * values: {@code <prefix>:key:<i>} holds {@code value-<i>}, and {@code <prefix>:list} is the demo list.
 */
public final class KeySpace {

	private final String prefix;

	private final String keyStem;

	public KeySpace(String prefix) {
		this.prefix = prefix;
		this.keyStem = prefix + ":key:";
	}

	/** Keys for untimed warm-up passes, under the same prefix so cleanup still finds them. */
	public KeySpace warmup() {
		return new KeySpace(this.prefix + ":warmup");
	}

	public String prefix() {
		return this.prefix;
	}

	public String key(long index) {
		return this.keyStem + index;
	}

	public byte[] keyBytes(long index) {
		return key(index).getBytes(StandardCharsets.UTF_8);
	}

	public String value(long index) {
		return "value-" + index;
	}

	public byte[] valueBytes(long index) {
		return value(index).getBytes(StandardCharsets.UTF_8);
	}

	public String listKey() {
		return this.prefix + ":list";
	}

	public byte[] listKeyBytes() {
		return listKey().getBytes(StandardCharsets.UTF_8);
	}

	/** A pattern for the numbered keys, for people reading answers and logs. */
	public String keyPattern() {
		return this.keyStem + "<i>";
	}

	/** The SCAN pattern for everything the lab owns; safe because the prefix holds no glob characters. */
	public String scanPattern() {
		return this.prefix + ":*";
	}

}
