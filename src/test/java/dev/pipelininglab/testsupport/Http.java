package dev.pipelininglab.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

/**
 * Real HTTP to an app the test started on a loopback port: for what MockMvc does not show
 * (the servlet container, connection handling, streams, a whole running app).
 */
public final class Http {

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	private final Duration timeout;

	/** Sent with every request: an app beyond loopback asks for HTTP Basic. */
	private final @Nullable String authorization;

	/**
	 * @param timeout how long one request may take before it fails the test instead of
	 * hanging it
	 */
	public Http(int port, Duration timeout) {
		this(port, timeout, null);
	}

	private Http(int port, Duration timeout, @Nullable String authorization) {
		this.port = port;
		this.timeout = timeout;
		this.authorization = authorization;
	}

	/** The same client, sending HTTP Basic credentials with every request. */
	public Http withBasic(String user, String password) {
		String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return new Http(this.port, this.timeout, "Basic " + token);
	}

	public URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/**
	 * A request to build on (headers, a method, a body) for
	 * {@link #send(HttpRequest.Builder)}.
	 */
	public HttpRequest.Builder request(String path) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
		if (this.authorization != null) {
			request.header("Authorization", this.authorization);
		}
		return request;
	}

	public HttpResponse<String> get(String path) {
		return send("GET", path);
	}

	/** {@code GET path} accepting {@code accept}, or anything when it is null. */
	public HttpResponse<String> get(String path, @Nullable String accept) {
		HttpRequest.Builder request = request(path);
		if (accept != null) {
			request.header("Accept", accept);
		}
		return send(request);
	}

	/** {@code POST path} with a JSON body. */
	public HttpResponse<String> postJson(String path, String json) {
		return send(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json)));
	}

	/** A request without a body. */
	public HttpResponse<String> send(String method, String path) {
		return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()));
	}

	/** A request the caller built (headers, a body), with this client's timeout. */
	public HttpResponse<String> send(HttpRequest.Builder request) {
		return send(request.timeout(this.timeout).build(), HttpResponse.BodyHandlers.ofString());
	}

	/** A request sent as it is, its timeout included, read with {@code body}. */
	public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
		try {
			return this.client.send(request, body);
		}
		catch (IOException ex) {
			throw new IllegalStateException(request.method() + " " + request.uri() + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
