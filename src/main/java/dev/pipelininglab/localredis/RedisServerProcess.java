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

/** A {@code redis-server} process on loopback, stopped with the JVM at the latest. */
public final class RedisServerProcess implements AutoCloseable {

	public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);

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

	public static RedisServerLaunch builder(Path binary, int port, Path workDir) {
		return new RedisServerLaunch(binary, port, workDir);
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

	Process process() {
		return this.process;
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
			releaseWatchdog();
		}
	}

	private void releaseWatchdog() {
		if (!this.process.isAlive()) {
			try {
				this.process.getOutputStream().close();
			}
			catch (IOException ex) {
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
