package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.pipelininglab.localredis.RedisServerProcess;

/**
 * What tests do to a running server to see how the app copes: kill it, or pause and
 * resume it. The app never does this to a server, so it lives here, not in
 * {@link RedisServerProcess}.
 */
public final class Outages {

	private static final long STOP_SECONDS = 5;

	/** Pids of the servers {@link #pause} stopped and {@link #resume} has not resumed. */
	private static final Set<Long> PAUSED = ConcurrentHashMap.newKeySet();

	private Outages() {
	}

	/**
	 * SIGKILL, no shutdown of any kind: what a crashed master looks like to replicas,
	 * sentinels and clients. Returns once the process is gone.
	 */
	public static void kill(RedisServerProcess server) {
		ProcessHandle.of(server.pid()).ifPresent((process) -> {
			process.destroyForcibly();
			try {
				process.onExit().get(STOP_SECONDS, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				throw new IllegalStateException(server + " did not end after SIGKILL", ex);
			}
		});
		PAUSED.remove(server.pid());
		// Releases what the launcher keeps for a live server (its JVM-exit watchdog).
		server.stop();
	}

	/**
	 * SIGSTOP: the server keeps its connections but answers nothing until
	 * {@link #resume}, like a server stuck in a long command or a GC-like stall. Unix
	 * only.
	 */
	public static void pause(RedisServerProcess server) {
		signal("STOP", server.pid());
		PAUSED.add(server.pid());
	}

	/** SIGCONT after {@link #pause}. */
	public static void resume(RedisServerProcess server) {
		signal("CONT", server.pid());
		PAUSED.remove(server.pid());
	}

	/**
	 * Whether {@link #pause} stopped it and it has not been resumed: it would not answer.
	 */
	public static boolean isPaused(RedisServerProcess server) {
		return PAUSED.contains(server.pid());
	}

	/**
	 * {@link RedisServerProcess#stop()}, or {@link #kill} for a paused server: it would
	 * not act on SIGTERM before being resumed, and has nothing to save.
	 */
	public static void stop(RedisServerProcess server) {
		if (isPaused(server)) {
			kill(server);
		}
		else {
			server.stop();
		}
	}

	private static void signal(String signal, long pid) {
		if (System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows")) {
			throw new UnsupportedOperationException("SIG" + signal + " is not available on Windows");
		}
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
				.start();
			String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!kill.waitFor(STOP_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + output.strip());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run kill -" + signal, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while sending SIG" + signal, ex);
		}
	}

}
