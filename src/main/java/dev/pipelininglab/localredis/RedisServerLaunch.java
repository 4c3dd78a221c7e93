package dev.pipelininglab.localredis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Starts a {@link RedisServerProcess}: collects what differs from the defaults of
 * {@link RedisServerProcess#start}, launches the server under a watchdog that ends it
 * with this JVM, and returns once it answers PING.
 */
public final class RedisServerLaunch {

	private static final Path SHELL = Path.of("/bin/sh");

	// fd 3 keeps the JVM's pipe for the background reader (a background job's own stdin
	// is /dev/null); the server gets it closed. Shell built-ins only (read, kill), and
	// sleep by its absolute path: with a PATH that lacked cat, the reader ended at once
	// and stopped the server it was meant to guard ("exited with code 143").
	private static final String WATCHDOG = "server=$$; exec 3<&0; "
			+ "( while read -r _ <&3; do :; done; kill -TERM $server 2>/dev/null && kill -CONT $server 2>/dev/null"
			+ escalation() + " ) >/dev/null 2>&1 &" + " exec \"$@\" 3<&-";

	/** SIGKILL 5 s after the SIGTERM, where a {@code sleep} binary can be found. */
	private static String escalation() {
		for (String sleep : List.of("/bin/sleep", "/usr/bin/sleep")) {
			if (Files.isExecutable(Path.of(sleep))) {
				return " && " + sleep + " 5 && kill -0 $server 2>/dev/null && kill -KILL $server";
			}
		}
		return "";
	}

	private final Path binary;

	private final int port;

	private final Path workDir;

	private String host = RedisServerProcess.DEFAULT_HOST;

	private final List<String> args = new ArrayList<>();

	private @Nullable Path configFile;

	private Duration startupTimeout = RedisServerProcess.DEFAULT_STARTUP_TIMEOUT;

	RedisServerLaunch(Path binary, int port, Path workDir) {
		if (port <= 0 || port > 65535) {
			throw new IllegalArgumentException("Port must be 1..65535 (pick one with freePort()), was " + port);
		}
		this.binary = binary;
		this.port = port;
		this.workDir = workDir.toAbsolutePath();
	}

	/**
	 * The address to bind and to PING; 127.0.0.1 unless set. Meant for loopback addresses
	 * only.
	 */
	public RedisServerLaunch host(String host) {
		this.host = host;
		return this;
	}

	public RedisServerLaunch args(String... args) {
		this.args.addAll(List.of(args));
		return this;
	}

	/**
	 * Start as {@code redis-server <configFile> ...}. The command-line options still
	 * apply on top of the file.
	 */
	public RedisServerLaunch configFile(Path configFile) {
		this.configFile = configFile.toAbsolutePath();
		return this;
	}

	public RedisServerLaunch startupTimeout(Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
		return this;
	}

	/**
	 * Starts the server and returns once it answers PING.
	 * @throws IllegalStateException if the port is taken, or the server exits or does not
	 * answer in time; the message includes the end of its log
	 */
	public RedisServerProcess start() {
		checkPortFree();
		List<String> command = new ArrayList<>();
		command.add(this.binary.toString());
		if (this.configFile != null) {
			command.add(this.configFile.toString());
		}
		command.addAll(List.of("--port", Integer.toString(this.port), "--bind", this.host, "--save", "", "--appendonly",
				"no", "--daemonize", "no", "--dir", this.workDir.toString(), "--logfile",
				this.workDir.resolve("redis.log").toString()));
		command.addAll(this.args);
		Process process;
		try {
			Files.createDirectories(this.workDir);
			process = new ProcessBuilder(watched(command)).directory(this.workDir.toFile())
				.redirectErrorStream(true)
				.redirectOutput(this.workDir.resolve("redis.out").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start " + String.join(" ", command), ex);
		}
		RedisServerProcess server = new RedisServerProcess(process, this.host, this.port, this.workDir);
		RedisServerProcess.LIVE.add(server);
		awaitPing(server, command);
		return server;
	}

	/**
	 * The command under a watchdog that ends the server when this JVM does, however it
	 * ends (a shutdown hook does not run after {@code kill -9}): a shell starts a
	 * background reader on its standard input, a pipe only this JVM writes to, then
	 * replaces itself with redis-server (so {@link RedisServerProcess#pid()} is the
	 * server's). When the JVM is gone the reader sees end of file and stops the server:
	 * SIGTERM (and SIGCONT, should a test have paused it), SIGKILL 5 s later. Without a
	 * POSIX shell (Windows) the command runs as it is.
	 */
	private static List<String> watched(List<String> command) {
		if (!Files.isExecutable(SHELL)) {
			return command;
		}
		List<String> watched = new ArrayList<>(List.of(SHELL.toString(), "-c", WATCHDOG, "redis-watchdog"));
		watched.addAll(command);
		return watched;
	}

	private void checkPortFree() {
		// Without this, a server already on the port would answer our PING while ours
		// dies of "address in use".
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(this.host, this.port));
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"Cannot start redis-server on " + this.host + ":" + this.port + ", the port is taken: " + ex, ex);
		}
	}

	private void awaitPing(RedisServerProcess server, List<String> command) {
		long deadline = System.nanoTime() + this.startupTimeout.toNanos();
		String problem = null;
		while (problem == null) {
			if (RedisServerProcess.answersPing(this.host, this.port, Duration.ofMillis(500))) {
				return;
			}
			if (!server.process().isAlive()) {
				int code = server.process().exitValue();
				// Plain words for a signal (128 + its number), the usual way a start
				// fails without a line in redis.log.
				problem = (code > 128) ? "was stopped by signal " + (code - 128) + " right after it started"
						+ " (exit code " + code + "); something on this machine ended it" : "exited with code " + code;
			}
			else if (System.nanoTime() > deadline) {
				problem = "did not answer PING within " + this.startupTimeout.toMillis() + " ms";
			}
			else {
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException ex) {
					server.kill();
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted while waiting for " + server, ex);
				}
			}
		}
		server.kill();
		String nl = System.lineSeparator();
		throw new IllegalStateException("redis-server on " + this.host + ":" + this.port + " " + problem + nl
				+ "command: " + String.join(" ", command) + nl + "redis.out:" + nl
				+ RedisServerProcess.tail(this.workDir.resolve("redis.out"), 20) + nl + "redis.log:" + nl
				+ RedisServerProcess.tail(this.workDir.resolve("redis.log"), 20));
	}

}
