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

/** Starts a {@link RedisServerProcess} under a watchdog and waits for its PING. */
public final class RedisServerLaunch {

	private static final Path SHELL = Path.of("/bin/sh");

	// Ends the server with the JVM, even after kill -9: a reader on a pipe only the JVM
	// holds (fd 3) sees EOF and sends TERM (CONT for a paused one), KILL 5 s later.
	// Built-ins and an absolute sleep: without cat on PATH the reader ended at once and
	// stopped the server.
	private static final String WATCHDOG = "server=$$; exec 3<&0; "
			+ "( while read -r _ <&3; do :; done; kill -TERM $server 2>/dev/null && kill -CONT $server 2>/dev/null"
			+ escalation() + " ) >/dev/null 2>&1 &" + " exec \"$@\" 3<&-";

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

	public RedisServerLaunch host(String host) {
		this.host = host;
		return this;
	}

	public RedisServerLaunch args(String... args) {
		this.args.addAll(List.of(args));
		return this;
	}

	public RedisServerLaunch configFile(Path configFile) {
		this.configFile = configFile.toAbsolutePath();
		return this;
	}

	public RedisServerLaunch startupTimeout(Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
		return this;
	}

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

	private static List<String> watched(List<String> command) {
		if (!Files.isExecutable(SHELL)) {
			return command;
		}
		List<String> watched = new ArrayList<>(List.of(SHELL.toString(), "-c", WATCHDOG, "redis-watchdog"));
		watched.addAll(command);
		return watched;
	}

	private void checkPortFree() {
		// A server already on the port would answer our PING while ours dies of "address
		// in use".
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
