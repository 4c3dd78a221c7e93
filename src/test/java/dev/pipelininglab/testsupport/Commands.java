package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether a tool a test needs (docker, newman) is on this machine, so the test can say it
 * skipped and why instead of failing.
 */
public final class Commands {

	private Commands() {
	}

	/** Whether {@code command} runs and exits 0 within a minute. */
	public static boolean succeeds(List<String> command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
