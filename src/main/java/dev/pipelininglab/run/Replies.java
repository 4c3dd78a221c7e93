package dev.pipelininglab.run;

import org.jspecify.annotations.Nullable;

/** The reply counts an answer shows for a read; null where they do not apply. */
record Replies(@Nullable Long hits, @Nullable Long misses, @Nullable Long popped, @Nullable Long empty,
		@Nullable Long pongs) {

	static final Replies NONE = new Replies(null, null, null, null, null);

}
