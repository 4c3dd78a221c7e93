package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.awaitility.Awaitility.await;

/**
 * Another client on a raw socket of its own: PINGs in bursts of 100, a burst every
 * millisecond at most, until closed. That is up to 100,000 commands a second, a thousand
 * times the traffic a run tolerates beside it; flooding as fast as the server answers
 * took both cores of a 2-core machine (this thread and Redis), and the test beside it
 * crawled.
 */
public final class Flood implements AutoCloseable {

	private static final int BURST = 100;

	private static final long PAUSE_NANOS = 1_000_000;

	private final AtomicLong sent = new AtomicLong();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final Socket socket;

	private final Thread thread;

	public Flood(String host, int port) throws IOException {
		this.socket = new Socket(host, port);
		this.thread = new Thread(this::hammer, "foreign-flood");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	private void hammer() {
		byte[] burst = "PING\r\n".repeat(BURST).getBytes(StandardCharsets.US_ASCII);
		byte[] replies = new byte[BURST * "+PONG\r\n".length()];
		try {
			OutputStream out = this.socket.getOutputStream();
			InputStream in = this.socket.getInputStream();
			while (this.running.get()) {
				out.write(burst);
				out.flush();
				int read = 0;
				while (read < replies.length) {
					int n = in.read(replies, read, replies.length - read);
					if (n < 0) {
						return;
					}
					read += n;
				}
				this.sent.addAndGet(BURST);
				LockSupport.parkNanos(PAUSE_NANOS);
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	/** Waits until the server has answered its first thousand PINGs. */
	public void awaitStarted() {
		await().atMost(Duration.ofSeconds(10)).until(() -> this.sent.get() >= 10 * BURST);
	}

	/** PINGs the server has answered so far. */
	public long sent() {
		return this.sent.get();
	}

	@Override
	public void close() throws Exception {
		this.running.set(false);
		this.thread.join(5000);
		this.socket.close();
	}

}
