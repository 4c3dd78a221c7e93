package dev.pipelininglab.localredis;

import java.io.IOException;
import java.io.InputStream;
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

/**
 * A real {@code redis-server} process listening on a loopback address, started in its own
 * working directory and stopped at the latest when the JVM exits.
 * <p>
 * Persistence is switched off ({@code --save "" --appendonly no}) and the log goes to
 * {@code redis.log} in the working directory; anything the server prints before its log
 * is open (e.g. a config error) goes to {@code redis.out} there.
 */
public final class RedisServerProcess implements AutoCloseable {

	public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

	private static final String DEFAULT_HOST = "127.0.0.1";

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

	private static final Set<RedisServerProcess> LIVE = ConcurrentHashMap.newKeySet();

	// A JVM shutdown hook of our own would run alongside Spring Boot's, which closes the
	// application contexts: servers stopped while a context still used them (running jobs
	// recording their end, Lettuce reconnecting, cached test contexts closing). Boot runs
	// its shutdown handlers one after another once every context has closed. One handler
	// for all processes: on exit they are all signalled first and then awaited together,
	// so a JVM with a dozen servers does not exit a dozen grace periods later. (Boot's
	// hook runs in any JVM that ran a Spring application; elsewhere the watchdog still
	// stops the servers as the JVM goes.)
	static {
		SpringApplication.getShutdownHandlers().add(RedisServerProcess::stopAllLive);
	}

	private final Process process;

	private final String host;

	private final int port;

	private final Path workDir;

	private RedisServerProcess(Process process, String host, int port, Path workDir) {
		this.process = process;
		this.host = host;
		this.port = port;
		this.workDir = workDir;
	}

	/**
	 * Starts {@code redis-server} on 127.0.0.1:{@code port} and waits until it answers
	 * PING.
	 * @param extraArgs appended to the command line, e.g.
	 * {@code "--cluster-enabled", "yes"}
	 */
	public static RedisServerProcess start(Path binary, int port, Path workDir, String... extraArgs) {
		return builder(binary, port, workDir).args(extraArgs).start();
	}

	/**
	 * For everything {@link #start} does not cover: another loopback address, a config
	 * file (sentinel mode needs a writable one:
	 * {@code .configFile(file).args("--sentinel")}) or another startup timeout.
	 */
	public static Builder builder(Path binary, int port, Path workDir) {
		return new Builder(binary, port, workDir);
	}

	/**
	 * A port that was free on the loopback interface a moment ago. Another process may
	 * take it before the caller binds it, which is unlikely enough for tests and local
	 * runs.
	 */
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

	/**
	 * Graceful stop: SIGTERM, then SIGKILL if it has not exited within 5 s. Does nothing
	 * if already stopped.
	 */
	public synchronized void stop() {
		try {
			if (this.process.isAlive()) {
				this.process.destroy();
				if (!this.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
					this.process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
				}
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
		finally {
			LIVE.remove(this);
			releaseWatchdog();
		}
	}

	/** SIGKILL, for a server that failed to start. */
	private synchronized void kill() {
		try {
			// Process.destroyForcibly() is SIGKILL on Unix.
			this.process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			LIVE.remove(this);
			releaseWatchdog();
		}
	}

	/** The server is down: the watchdog's pipe closes, so it ends too. */
	private void releaseWatchdog() {
		if (!this.process.isAlive()) {
			try {
				this.process.getOutputStream().close();
			}
			catch (IOException ex) {
				// Already closed.
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

	/**
	 * Whether something on {@code host:port} answers PING like a Redis server.
	 * {@code -NOAUTH} counts as an answer: a server with {@code requirepass} is up, it
	 * just wants a password.
	 */
	static boolean answersPing(String host, int port, Duration timeout) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
			socket.setSoTimeout((int) timeout.toMillis());
			OutputStream out = socket.getOutputStream();
			out.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			String reply = readLine(socket.getInputStream());
			return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		int c;
		while ((c = in.read()) != -1 && c != '\n') {
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}

	private static String tail(Path file, int lines) {
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

	/**
	 * Collects what differs from the defaults of {@link RedisServerProcess#start}.
	 */
	public static final class Builder {

		private final Path binary;

		private final int port;

		private final Path workDir;

		private String host = DEFAULT_HOST;

		private final List<String> args = new ArrayList<>();

		private @Nullable Path configFile;

		private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;

		private Builder(Path binary, int port, Path workDir) {
			if (port <= 0 || port > 65535) {
				throw new IllegalArgumentException("Port must be 1..65535 (pick one with freePort()), was " + port);
			}
			this.binary = binary;
			this.port = port;
			this.workDir = workDir.toAbsolutePath();
		}

		/**
		 * The address to bind and to PING; 127.0.0.1 unless set. Meant for loopback
		 * addresses only.
		 */
		public Builder host(String host) {
			this.host = host;
			return this;
		}

		public Builder args(String... args) {
			this.args.addAll(List.of(args));
			return this;
		}

		/**
		 * Start as {@code redis-server <configFile> ...}. The command-line options still
		 * apply on top of the file.
		 */
		public Builder configFile(Path configFile) {
			this.configFile = configFile.toAbsolutePath();
			return this;
		}

		public Builder startupTimeout(Duration startupTimeout) {
			this.startupTimeout = startupTimeout;
			return this;
		}

		/**
		 * Starts the server and returns once it answers PING.
		 * @throws IllegalStateException if the port is taken, or the server exits or does
		 * not answer in time; the message includes the end of its log
		 */
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

		/**
		 * The command under a watchdog that ends the server when this JVM does, however
		 * it ends (a shutdown hook does not run after {@code kill -9}): a shell starts a
		 * background reader on its standard input, a pipe only this JVM writes to, then
		 * replaces itself with redis-server (so {@link #pid()} is the server's). When the
		 * JVM is gone the reader sees end of file and stops the server: SIGTERM (and
		 * SIGCONT, should a test have paused it), SIGKILL 5 s later. Without a POSIX
		 * shell (Windows) the command runs as it is.
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
						"Cannot start redis-server on " + this.host + ":" + this.port + ", the port is taken: " + ex,
						ex);
			}
		}

		private void awaitPing(RedisServerProcess server, List<String> command) {
			long deadline = System.nanoTime() + this.startupTimeout.toNanos();
			String problem = null;
			while (problem == null) {
				if (answersPing(this.host, this.port, Duration.ofMillis(500))) {
					return;
				}
				if (!server.process.isAlive()) {
					int code = server.process.exitValue();
					// Plain words for a signal (128 + its number), the usual way a start
					// fails without a line in redis.log.
					problem = (code > 128) ? "was stopped by signal " + (code - 128) + " right after it started"
							+ " (exit code " + code + "); something on this machine ended it"
							: "exited with code " + code;
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
					+ tail(this.workDir.resolve("redis.out"), 20) + nl + "redis.log:" + nl
					+ tail(this.workDir.resolve("redis.log"), 20));
		}

	}

}
