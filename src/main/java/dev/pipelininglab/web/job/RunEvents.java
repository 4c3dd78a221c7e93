package dev.pipelininglab.web.job;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

import dev.pipelininglab.job.JobProperties;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.job.RunRecord;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * {@code GET /runs/{id}/events}: the run's record on each change until a final status,
 * polled from Redis so a job run by any instance can be followed.
 */
@Component
public class RunEvents implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RunEvents.class);

	/** Proxies drop silent connections: a comment keeps a slow run's open. */
	private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

	private final RunExecutor jobs;

	private final JobProperties settings;

	private final Set<Stream> streams = ConcurrentHashMap.newKeySet();

	private final TaskScheduler scheduler;

	/** Scheduled on start: a stopped context may start again (tests pause contexts). */
	private volatile @Nullable ScheduledFuture<?> poller;

	RunEvents(RunExecutor jobs, JobProperties settings, TaskScheduler scheduler) {
		this.scheduler = scheduler;
		this.jobs = jobs;
		this.settings = settings;
	}

	/** Not found is a problem before any event: a 404 rather than an empty stream. */
	public SseEmitter stream(String id) {
		RunRecord first = this.jobs.get(id);
		SseEmitter emitter = new SseEmitter(this.settings.eventsTimeout().toMillis());
		Stream stream = new Stream(id, emitter);
		emitter.onCompletion(() -> this.streams.remove(stream));
		emitter.onTimeout(stream::end);
		emitter.onError((ex) -> this.streams.remove(stream));
		try {
			stream.send(first);
			if (!first.status().terminal() && isRunning()) {
				this.streams.add(stream);
				return emitter;
			}
		}
		catch (IOException | IllegalStateException ex) {
			// Gone already: end it below.
		}
		stream.end();
		return emitter;
	}

	private final class Stream {

		private final String id;

		private final SseEmitter emitter;

		private @Nullable RunRecord last;

		private long lastSentNanos;

		private long sequence;

		Stream(String id, SseEmitter emitter) {
			this.id = id;
			this.emitter = emitter;
		}

		synchronized void poll() {
			try {
				RunRecord record = RunEvents.this.jobs.find(this.id).orElse(null);
				if (record == null) {
					// Expired or removed with the demo keys: nothing more will come.
					end();
					return;
				}
				if (changed(record)) {
					send(record);
				}
				else if (System.nanoTime() - this.lastSentNanos > KEEP_ALIVE.toNanos()) {
					this.emitter.send(SseEmitter.event().comment("keep-alive"));
					this.lastSentNanos = System.nanoTime();
				}
				if (record.status().terminal()) {
					end();
				}
			}
			catch (IOException | IllegalStateException ex) {
				RunEvents.this.streams.remove(this);
			}
			catch (RuntimeException ex) {
				// Redis unreachable for a moment: look again next time.
				log.debug("Cannot read run {} for its event stream: {}", this.id, ex.getMessage());
			}
		}

		private boolean changed(RunRecord record) {
			RunRecord previous = this.last;
			return previous == null || previous.status() != record.status()
					|| previous.cancelRequested() != record.cancelRequested()
					|| !Objects.equals(previous.progress(), record.progress());
		}

		synchronized void send(RunRecord record) throws IOException {
			this.emitter.send(SseEmitter.event()
				.id(Long.toString(++this.sequence))
				.name("run")
				.data(record, MediaType.APPLICATION_JSON));
			this.last = record;
			this.lastSentNanos = System.nanoTime();
		}

		void end() {
			RunEvents.this.streams.remove(this);
			try {
				this.emitter.complete();
			}
			catch (IllegalStateException ex) {
				// Completed already.
			}
		}

	}

	/** One poller for every stream, each read at most every progress interval. */
	@Override
	public void start() {
		Duration interval = this.settings.progressInterval();
		this.poller = this.scheduler.scheduleWithFixedDelay(() -> this.streams.forEach(Stream::poll),
				Instant.now().plus(interval), interval);
	}

	/** Ends every stream with its run's final state: graceful shutdown waits for none. */
	@Override
	public void stop() {
		ScheduledFuture<?> stopped = this.poller;
		this.poller = null;
		for (Stream stream : List.copyOf(this.streams)) {
			stream.poll();
			stream.end();
		}
		if (stopped != null) {
			stopped.cancel(false);
		}
	}

	@Override
	public boolean isRunning() {
		return this.poller != null;
	}

	/** Stops after {@link RunExecutor}, before the web server. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 1;
	}

}
