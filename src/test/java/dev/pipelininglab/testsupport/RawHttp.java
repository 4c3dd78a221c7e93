package dev.pipelininglab.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP written byte for byte, for requests no well-behaved client sends: a path that is
 * not a valid URI, a foreign {@code Host}, a {@code TRACE}. HTTP/1.0, so the answer ends
 * when the connection does and is never chunked.
 */
public record RawHttp(int status, Map<String, String> headers, String body) {

	public static RawHttp send(int port, String method, String target, String... headerLines) {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.setSoTimeout(30_000);
			StringBuilder request = new StringBuilder(method + " " + target + " HTTP/1.0\r\n");
			boolean host = false;
			for (String line : headerLines) {
				request.append(line).append("\r\n");
				host |= line.toLowerCase(Locale.ROOT).startsWith("host:");
			}
			if (!host) {
				request.append("Host: 127.0.0.1:").append(port).append("\r\n");
			}
			request.append("\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			return parse(readAll(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(method + " " + target, ex);
		}
	}

	private static String readAll(InputStream in) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		in.transferTo(bytes);
		return bytes.toString(StandardCharsets.UTF_8);
	}

	private static RawHttp parse(String response) {
		int end = response.indexOf("\r\n\r\n");
		String head = (end >= 0) ? response.substring(0, end) : response;
		String[] lines = head.split("\r\n");
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).trim());
			}
		}
		return new RawHttp(Integer.parseInt(lines[0].split(" ")[1]), headers,
				(end >= 0) ? response.substring(end + 4) : "");
	}

	public String header(String name) {
		return this.headers.getOrDefault(name.toLowerCase(Locale.ROOT), "");
	}

	@Override
	public String toString() {
		return this.status + " " + this.headers + " " + this.body;
	}

}
