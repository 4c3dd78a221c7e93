package dev.pipelininglab.web.tomcat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.servlet.ServletRequest;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.util.WebUtils;

/**
 * Whether a GET run's caller is still connected: the Servlet API learns of a hang-up only
 * on a read or write, and a GET run writes once, at its end. So this probes the socket,
 * reached through Tomcat's request facade (checked by {@code TomcatHooksContractTests}),
 * with a non-blocking read at most once per {@link #INTERVAL_NANOS}; where that fails
 * (another server, MockMvc) the caller counts as connected.
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

	public static CallerConnection of(ServletRequest request) {
		RequestFacade facade = WebUtils.getNativeRequest(request, RequestFacade.class);
		if (facade == null || FACADE_REQUEST == null || INPUT_WRAPPER == null) {
			return UNKNOWN;
		}
		try {
			Request catalina = (Request) FACADE_REQUEST.get(facade);
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

	/** Safe from a run's several clients: one probes, the others read its answer. */
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
