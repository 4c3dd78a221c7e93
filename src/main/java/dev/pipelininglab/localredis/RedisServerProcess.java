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

	static final String DEFAULT_HOST = "127.0.0.1";

	static final Set<RedisServerProcess> LIVE = ConcurrentHashMap.newKeySet();

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

	RedisServerProcess(Process process, String host, int port, Path workDir) {
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
	public static RedisServerLaunch builder(Path binary, int port, Path workDir) {
		return new RedisServerLaunch(binary, port, workDir);
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

	/** The process itself, for the launch that waits for it to answer. */
	Process process() {
		return this.process;
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
	synchronized void kill() {
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

}
