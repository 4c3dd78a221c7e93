package dev.pipelininglab.localredis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;

/** A {@code redis-server} process on loopback, stopped with the JVM at the latest. */
public final class RedisServerProcess implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

	static final String DEFAULT_HOST = "127.0.0.1";

	static final Set<RedisServerProcess> LIVE = ConcurrentHashMap.newKeySet();

	static {
		// Boot's shutdown handlers run after every context closed; a hook of our own
		// stopped servers still in use.
		SpringApplication.getShutdownHandlers().add(RedisServerProcess::stopAllLive);
	}

	private final Process process;

	private final String host;

	private final int port;

	private final Path workDir;

	RedisServerProcess(Process process, String host, int port, Path workDir) {
		this.process = process;
		this.host = host;
		this.port = port;
		this.workDir = workDir;
	}

	public static RedisServerProcess start(Path binary, int port, Path workDir, String... extraArgs) {
		return builder(binary, port, workDir).args(extraArgs).start();
	}

	public static Launch builder(Path binary, int port, Path workDir) {
		return new Launch(binary, port, workDir);
	}

	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(DEFAULT_HOST))) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free port on " + DEFAULT_HOST, ex);
		}
	}

	public String host() {
		return this.host;
	}

	public int port() {
		return this.port;
	}

	public long pid() {
		return this.process.pid();
	}

	public Path workDir() {
		return this.workDir;
	}

	public Path logFile() {
		return this.workDir.resolve("redis.log");
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	public void stop() {
		end(true);
	}

	void kill() {
		end(false);
	}

	// SIGTERM first when graceful, SIGKILL once that has not ended it within
	// STOP_TIMEOUT.
	private synchronized void end(boolean graceful) {
		try {
			if (graceful && this.process.isAlive()) {
				this.process.destroy();
				this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
			if (this.process.isAlive()) {
				this.process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		finally {
			LIVE.remove(this);
			// Closing the watchdog's pipe lets the watchdog end as well.
			if (!this.process.isAlive()) {
				try {
					this.process.getOutputStream().close();
				}
				catch (IOException ex) {
				}
			}
		}
	}

	@Override
	public void close() {
		stop();
	}

	@Override
	public String toString() {
		return "redis-server[" + this.host + ":" + this.port + ", pid " + this.process.pid() + ", " + this.workDir
				+ "]";
	}

	private static void stopAllLive() {
		List<RedisServerProcess> all = new ArrayList<>(LIVE);
		for (RedisServerProcess server : all) {
			server.process.destroy();
		}
		long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
		for (RedisServerProcess server : all) {
			try {
				long left = Math.max(0, deadline - System.nanoTime());
				if (!server.process.waitFor(left, TimeUnit.NANOSECONDS)) {
					server.process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				server.process.destroyForcibly();
			}
		}
	}

	static boolean answersPing(String host, int port, Duration timeout) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
			socket.setSoTimeout((int) timeout.toMillis());
			OutputStream out = socket.getOutputStream();
			out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String reply = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
				.readLine();
			return reply != null && (reply.startsWith("+PONG") || reply.startsWith("-NOAUTH"));
		}
		catch (IOException ex) {
			return false;
		}
	}

	static String tail(Path file, int lines) {
		if (!Files.isRegularFile(file)) {
			return "(no " + file.getFileName() + ")";
		}
		try {
			List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
			return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException ex) {
			return "(could not read " + file + ": " + ex + ")";
		}
	}

	/** Starts a {@link RedisServerProcess} under a watchdog and waits for its PING. */
	public static final class Launch {

		private static final Path SHELL = Path.of("/bin/sh");

		// Ends the server with the JVM, even after kill -9: a reader on a pipe only the
		// JVM holds (fd 3) sees EOF and sends TERM (CONT for a paused one), KILL 5 s
		// later. Built-ins and an absolute sleep: without cat on PATH the reader ended at
		// once and stopped the server.
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

		private String host = DEFAULT_HOST;

		private final List<String> args = new ArrayList<>();

		private @Nullable Path configFile;

		Launch(Path binary, int port, Path workDir) {
			if (port <= 0 || port > 65535) {
				throw new IllegalArgumentException("Port must be 1..65535 (pick one with freePort()), was " + port);
			}
			this.binary = binary;
			this.port = port;
			this.workDir = workDir.toAbsolutePath();
		}

		public Launch host(String host) {
			this.host = host;
			return this;
		}

		public Launch args(String... args) {
			this.args.addAll(List.of(args));
			return this;
		}

		public Launch configFile(Path configFile) {
			this.configFile = configFile.toAbsolutePath();
			return this;
		}

		public RedisServerProcess start() {
			checkPortFree();
			List<String> command = new ArrayList<>();
			command.add(this.binary.toString());
			if (this.configFile != null) {
				command.add(this.configFile.toString());
			}
			command.addAll(List.of("--port", Integer.toString(this.port), "--bind", this.host, "--save", "",
					"--appendonly", "no", "--daemonize", "no", "--dir", this.workDir.toString(), "--logfile",
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
			LIVE.add(server);
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
			// A server already on the port would answer our PING while ours dies of
			// "address in use".
			try (ServerSocket socket = new ServerSocket()) {
				socket.bind(new InetSocketAddress(this.host, this.port));
			}
			catch (IOException ex) {
				throw new IllegalStateException(
						"Cannot start redis-server on " + this.host + ":" + this.port + ", the port is taken: " + ex,
						ex);
			}
		}

		private void awaitPing(RedisServerProcess server, List<String> command) {
			long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
			while (!answersPing(this.host, this.port, Duration.ofMillis(500))) {
				if (!server.process.isAlive()) {
					int code = server.process.exitValue();
					throw failed(server, command,
							(code > 128)
									? "was stopped by signal " + (code - 128) + " right after it started (exit code "
											+ code + "); something on this machine ended it"
									: "exited with code " + code);
				}
				if (System.nanoTime() > deadline) {
					throw failed(server, command, "did not answer PING within " + STARTUP_TIMEOUT.toMillis() + " ms");
				}
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

		private IllegalStateException failed(RedisServerProcess server, List<String> command, String problem) {
			server.kill();
			String nl = System.lineSeparator();
			return new IllegalStateException("redis-server on " + this.host + ":" + this.port + " " + problem + nl
					+ "command: " + String.join(" ", command) + nl + "redis.out:" + nl
					+ tail(this.workDir.resolve("redis.out"), 20) + nl + "redis.log:" + nl
					+ tail(this.workDir.resolve("redis.log"), 20));
		}

	}

}
