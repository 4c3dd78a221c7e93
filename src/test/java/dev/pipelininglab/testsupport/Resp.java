package dev.pipelininglab.testsupport;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough RESP2 to set topologies up: one blocking connection, one command at a time.
 * Cheaper than a Lettuce client (no event loops) for the handful of admin commands setup
 * and {@code flushAll()} send, and independent of the client the tests exercise.
 */
final class Resp implements AutoCloseable {

	private static final int TIMEOUT_MILLIS = 5_000;

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	Resp(String host, int port) {
		try {
			this.socket = new Socket();
			this.socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
			this.socket.setSoTimeout(TIMEOUT_MILLIS);
			this.in = new BufferedInputStream(this.socket.getInputStream());
			this.out = new BufferedOutputStream(this.socket.getOutputStream());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot connect to " + host + ":" + port, ex);
		}
	}

	/**
	 * Sends one command on a new connection.
	 */
	static Object call(String host, int port, String... command) {
		try (Resp resp = new Resp(host, port)) {
			return resp.call(command);
		}
	}

	/**
	 * @return a String (simple or bulk string), Long, {@code null} (nil) or List of those
	 * @throws RespError for an error reply
	 */
	Object call(String... command) {
		try {
			this.out.write(("*" + command.length + "\r\n").getBytes(StandardCharsets.UTF_8));
			for (String arg : command) {
				byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
				this.out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
				this.out.write(bytes);
				this.out.write("\r\n".getBytes(StandardCharsets.UTF_8));
			}
			this.out.flush();
			return read();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					String.join(" ", command) + " on " + this.socket.getRemoteSocketAddress() + " failed", ex);
		}
	}

	String string(String... command) {
		return (String) call(command);
	}

	/**
	 * {@code INFO <section>} as key/value pairs.
	 */
	Map<String, String> info(String section) {
		return parseInfo(string("INFO", section));
	}

	/**
	 * A reply that is a flat list of alternating keys and values, such as
	 * {@code SENTINEL MASTER}.
	 */
	static Map<String, String> pairs(Object reply) {
		List<?> list = (List<?>) reply;
		Map<String, String> map = new LinkedHashMap<>();
		for (int i = 0; i + 1 < list.size(); i += 2) {
			map.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
		}
		return map;
	}

	static Map<String, String> parseInfo(String info) {
		Map<String, String> map = new LinkedHashMap<>();
		for (String line : info.split("\r?\n")) {
			int colon = line.indexOf(':');
			if (colon > 0 && !line.startsWith("#")) {
				map.put(line.substring(0, colon), line.substring(colon + 1).strip());
			}
		}
		return map;
	}

	private Object read() throws IOException {
		int type = this.in.read();
		if (type == -1) {
			throw new EOFException("connection closed");
		}
		String line = readLine();
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RespError(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] bytes = this.in.readNBytes(length + 2);
				return new String(bytes, 0, length, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					try {
						items.add(read());
					}
					catch (RespError ex) {
						// An error inside an array (e.g. from EXEC) is data, not a
						// failure of the call.
						items.add(ex);
					}
				}
				return items;
			}
			default:
				throw new IOException("Unexpected RESP type '" + (char) type + "'");
		}
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int c;
		while ((c = this.in.read()) != '\n') {
			if (c == -1) {
				throw new EOFException("connection closed");
			}
			if (c != '\r') {
				line.write(c);
			}
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	@Override
	public void close() {
		try {
			this.socket.close();
		}
		catch (IOException ex) {
			// nothing left to do with a broken admin connection
		}
	}

	/**
	 * An error reply, e.g. {@code ERR Unknown node ...}.
	 */
	static final class RespError extends RuntimeException {

		RespError(String message) {
			super(message);
		}

	}

}
