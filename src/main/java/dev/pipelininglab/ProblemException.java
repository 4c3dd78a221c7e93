package dev.pipelininglab;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A failure the lab answers as a problem of its catalogue: its {@link ProblemType}, the
 * message as the problem's detail, and the fields a client can act on. Not Spring's
 * {@code ErrorResponseException}: {@code job}, {@code run} and {@code redis} throw these
 * and speak no HTTP; {@code web.problem} answers every one with one handler.
 */
public class ProblemException extends RuntimeException {

	private final ProblemType type;

	private final Map<String, Object> properties = new LinkedHashMap<>();

	/**
	 * @param properties name, value pairs; a value of {@code null} is left out, so a
	 * field appears only where it means something
	 */
	public ProblemException(ProblemType type, String detail, @Nullable Object... properties) {
		super(detail);
		this.type = type;
		for (int i = 0; i < properties.length; i += 2) {
			if (properties[i + 1] != null) {
				this.properties.put(String.valueOf(properties[i]), properties[i + 1]);
			}
		}
	}

	public ProblemType type() {
		return this.type;
	}

	public Map<String, Object> properties() {
		return Collections.unmodifiableMap(this.properties);
	}

	/** How long a client should wait before asking again, where waiting helps. */
	public @Nullable Duration retryAfter() {
		return null;
	}

}
