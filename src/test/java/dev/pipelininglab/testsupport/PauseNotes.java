package dev.pipelininglab.testsupport;

import java.util.Map;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;

/**
 * A loaded test machine may stop the app mid-pass, and the answer's {@code note} then
 * says so: right, but not what a test about shortfalls, evictions or losses is asking.
 */
public final class PauseNotes {

	private static final Pattern PAUSE = Pattern
		.compile("This process was not running for .*? so run again for clean figures\\.\\s*");

	private PauseNotes() {
	}

	/**
	 * The {@code note} of a run's JSON answer without its pause sentences; "" if none.
	 */
	public static String besidesPauses(String body) {
		Object note = JsonPath.<Map<String, Object>>read(body, "$").get("note");
		return (note != null) ? PAUSE.matcher(note.toString()).replaceAll("").trim() : "";
	}

}
