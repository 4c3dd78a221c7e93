package dev.pipelininglab.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.lettuce.core.RedisException;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import io.lettuce.core.resource.ClientResources;
import reactor.core.Disposable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * With {@code REJECT_COMMANDS} Lettuce refuses a command at once while its connection is
 * being made again, and a connection just made can be in that state: when its handshake
 * is answered as the initialization timeout ({@code spring.data.redis.timeout}) runs out,
 * Lettuce hands it over and closes it (seen under load: the first run after start
 * answered 503 "Currently not connected"). Untimed work that was refused so, and so sent
 * nothing, waits for the connection within the command timeout and is sent again; it
 * fails as before once a reconnect attempt fails (the server is down: a second at most)
 * or the timeout passes.
 */
@Component
public class Reconnects implements DisposableBean {

	private static final String REJECTED = "Currently not connected. Commands are rejected.";

	private static final long CHECK_NANOS = Duration.ofMillis(10).toNanos();

	private final Duration limit;

	private final AtomicLong activated = new AtomicLong();

	private final AtomicLong failed = new AtomicLong();

	private final Disposable events;

	Reconnects(ClientResources resources, LettuceConnectionFactory factory) {
		this.limit = factory.getClientConfiguration().getCommandTimeout();
		this.events = resources.eventBus().get().subscribe((event) -> {
			if (event instanceof ConnectionActivatedEvent) {
				this.activated.incrementAndGet();
			}
			else if (event instanceof ReconnectFailedEvent) {
				this.failed.incrementAndGet();
			}
		});
	}

	public <T> T awaiting(Supplier<T> work) {
		long deadline = System.nanoTime() + this.limit.toNanos();
		while (true) {
			long activatedBefore = this.activated.get();
			long failedBefore = this.failed.get();
			try {
				return work.get();
			}
			catch (RuntimeException ex) {
				if (!rejected(ex)) {
					throw ex;
				}
				while (this.activated.get() == activatedBefore && this.failed.get() == failedBefore
						&& System.nanoTime() - deadline < 0) {
					LockSupport.parkNanos(CHECK_NANOS);
				}
				if (this.failed.get() != failedBefore || System.nanoTime() - deadline >= 0) {
					throw ex;
				}
			}
		}
	}

	static boolean rejected(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof RedisException && REJECTED.equals(cause.getMessage())) {
				return true;
			}
		}
		return false;
	}

	@Override
	public void destroy() {
		this.events.dispose();
	}

}
