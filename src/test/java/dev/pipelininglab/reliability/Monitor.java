package dev.pipelininglab.reliability;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.awaitility.Awaitility;

/**
 * Watches every command a Redis server executes ({@code MONITOR}) and checks each one as
 * it arrives, keeping only counts and the first few violations, so a session of hundreds
 * of thousands of commands costs no memory.
 */
final class Monitor implements AutoCloseable {

	private static final int MAX_VIOLATIONS = 20;

	private final Socket socket;

	private final Thread reader;

	private final Function<List<String>, String> check;

	private final AtomicLong commands = new AtomicLong();

	private final Map<String, AtomicLong> byName = new ConcurrentHashMap<>();

	private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

	/**
	 * The arguments of every ECHO and PING seen: a marker stays seen once commands follow
	 * it.
	 */
	private final Set<String> markers = ConcurrentHashMap.newKeySet();

	/**
	 * @param check returns null for an acceptable command (name first, then arguments),
	 * else what is wrong
	 */
	Monitor(String host, int port, Function<List<String>, String> check) throws IOException {
		this.check = check;
		this.socket = new Socket();
		this.socket.connect(new InetSocketAddress(host, port), 2000);
		this.socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
		this.socket.getOutputStream().flush();
		InputStream in = new BufferedInputStream(this.socket.getInputStream(), 1 << 16);
		String ok = readLine(in);
		if (!"+OK".equals(ok)) {
			throw new IOException("MONITOR answered " + ok);
		}
		this.reader = new Thread(() -> read(in), "redis-monitor");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Waits until an ECHO or PING carrying {@code marker} has been seen, so every command
	 * sent before it was checked.
	 */
	void awaitMarker(String marker, long timeoutMillis) {
		Awaitility.await("MONITOR showing " + marker)
			.atMost(Duration.ofMillis(timeoutMillis))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> this.markers.contains(marker));
	}

	long commands() {
		return this.commands.get();
	}

	Map<String, AtomicLong> byName() {
		return this.byName;
	}

	List<String> violations() {
		synchronized (this.violations) {
			return List.copyOf(this.violations);
		}
	}

	private void read(InputStream in) {
		try {
			String line;
			while ((line = readLine(in)) != null) {
				List<String> command = parse(line);
				if (command.isEmpty()) {
					continue;
				}
				this.commands.incrementAndGet();
				this.byName.computeIfAbsent(command.get(0).toUpperCase(java.util.Locale.ROOT), (k) -> new AtomicLong())
					.incrementAndGet();
				if (command.size() > 1 && Set.of("ECHO", "PING").contains(command.get(0).toUpperCase(Locale.ROOT))) {
					this.markers.add(command.get(1));
				}
				String problem = this.check.apply(command);
				if (problem != null && this.violations.size() < MAX_VIOLATIONS) {
					this.violations.add(problem + ": " + line);
				}
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	/**
	 * {@code +1700000000.123456 [0 127.0.0.1:5555] "SET" "key" "value"} to
	 * {@code [SET, key, value]}.
	 */
	static List<String> parse(String line) {
		int start = line.indexOf("] ");
		List<String> args = new ArrayList<>();
		if (!line.startsWith("+") || start < 0) {
			return args;
		}
		int i = start + 2;
		while (i < line.length()) {
			if (line.charAt(i) != '"') {
				i++;
				continue;
			}
			ByteArrayOutputStream arg = new ByteArrayOutputStream();
			i++;
			while (i < line.length() && line.charAt(i) != '"') {
				char c = line.charAt(i);
				if (c == '\\' && i + 1 < line.length()) {
					char next = line.charAt(i + 1);
					switch (next) {
						case 'n' -> arg.write('\n');
						case 'r' -> arg.write('\r');
						case 't' -> arg.write('\t');
						case 'a' -> arg.write(7);
						case 'b' -> arg.write('\b');
						case 'x' -> {
							arg.write(Integer.parseInt(line.substring(i + 2, i + 4), 16));
							i += 2;
						}
						default -> arg.write(next);
					}
					i += 2;
				}
				else {
					arg.write(c);
					i++;
				}
			}
			args.add(arg.toString(StandardCharsets.UTF_8));
			i++;
		}
		return args;
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream(128);
		int c;
		while ((c = in.read()) != -1) {
			if (c == '\n') {
				return line.toString(StandardCharsets.ISO_8859_1);
			}
			if (c != '\r') {
				line.write(c);
			}
		}
		return null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		try {
			this.reader.join(2000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
