package dev.pipelininglab.web.tomcat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the HTTP client that asked for a GET run is still connected. A servlet learns
 * that a client hung up only when it writes or reads, and a GET run writes its answer
 * only at the end: a {@code curl --max-time 10} would leave an hour's run going, holding
 * a run slot. So the run asks between round trips, and this probes the request's own
 * socket with one non-blocking read (Tomcat's {@code isReadyForRead}): end of stream or a
 * reset means the client is gone; bytes that arrive (a pipelined next request) stay in
 * Tomcat's buffer for it. Probes are at most one per {@link #INTERVAL_NANOS}, so a loop
 * of a million commands costs a few hundred reads, not a million.
 * <p>
 * Tomcat hides the socket from the Servlet API (which learns of a hang-up only on a read
 * or write, and a GET run writes once, at its end), so it is reached through Tomcat's
 * request facade: the one hook into the container, fenced in this package and checked
 * against the Tomcat in use by {@code TomcatHooksContractTests}. Where it fails (another
 * server, MockMvc), the caller counts as connected and runs end as before: by their own
 * end, max-run-time or shutdown.
 */
public final class CallerConnection {

	private static final Logger log = LoggerFactory.getLogger(CallerConnection.class);

	static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final CallerConnection UNKNOWN = new CallerConnection(null);

	private static final @Nullable Field FACADE_REQUEST = field(RequestFacade.class, "request");

	private static final @Nullable Field INPUT_WRAPPER = field(org.apache.coyote.http11.Http11InputBuffer.class,
			"wrapper");

	private final @Nullable SocketWrapperBase<?> socket;

	private final ReentrantLock probing = new ReentrantLock();

	private volatile long lastProbe = System.nanoTime();

	private volatile boolean gone;

	private CallerConnection(@Nullable SocketWrapperBase<?> socket) {
		this.socket = socket;
	}

	/**
	 * The connection {@code request} arrived on, or one that always counts as open.
	 */
	public static CallerConnection of(ServletRequest request) {
		ServletRequest unwrapped = request;
		while (unwrapped instanceof ServletRequestWrapper wrapper) {
			unwrapped = wrapper.getRequest();
		}
		if (!(unwrapped instanceof RequestFacade) || FACADE_REQUEST == null || INPUT_WRAPPER == null) {
			return UNKNOWN;
		}
		try {
			Request catalina = (Request) FACADE_REQUEST.get(unwrapped);
			Object input = catalina.getCoyoteRequest().getInputBuffer();
			if (input instanceof org.apache.coyote.http11.Http11InputBuffer
					&& INPUT_WRAPPER.get(input) instanceof SocketWrapperBase<?> socket) {
				return new CallerConnection(socket);
			}
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			log.debug("Cannot watch the caller's connection: {}", ex.toString());
		}
		return UNKNOWN;
	}

	/**
	 * True once the client closed or reset the connection. Safe from several threads
	 * (runs with many clients ask from each): one probes, the others read its answer.
	 */
	public boolean gone() {
		SocketWrapperBase<?> socket = this.socket;
		if (socket == null || this.gone) {
			return this.gone;
		}
		long now = System.nanoTime();
		if (now - this.lastProbe < INTERVAL_NANOS || !this.probing.tryLock()) {
			return false;
		}
		try {
			this.lastProbe = now;
			if (socket.isClosed()) {
				this.gone = true;
			}
			else {
				socket.isReadyForRead();
			}
		}
		catch (IOException ex) {
			// EOFException for a close, "Connection reset" for a reset: gone either way.
			this.gone = true;
		}
		finally {
			this.probing.unlock();
		}
		return this.gone;
	}

	private static @Nullable Field field(Class<?> type, String name) {
		try {
			Field field = type.getDeclaredField(name);
			field.setAccessible(true);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			log.debug("Cannot watch callers' connections: {}.{} {}", type.getName(), name, ex.toString());
			return null;
		}
	}

}
