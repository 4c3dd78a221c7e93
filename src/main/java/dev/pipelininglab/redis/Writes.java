package dev.pipelininglab.redis;

import java.util.Locale;

/** How Lettuce hands a flush to Netty: one message per flush or per command. */
public enum Writes {

	PER_FLUSH, PER_COMMAND;

	public String label() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	@Override
	public String toString() {
		return label();
	}

}
