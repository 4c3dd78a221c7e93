package dev.pipelininglab.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.KeySpace;
import redis.clients.jedis.Jedis;

import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A long run requested in the background, so the test can act on Redis (kill it, pause
 * it, take the only slot) while the run is under way.
 */
public final class BackgroundRun {

	private final CompletableFuture<MockHttpServletResponse> answer;

	private BackgroundRun(CompletableFuture<MockHttpServletResponse> answer) {
		this.answer = answer;
	}

	/** {@code GET uri} on another thread. */
	public static BackgroundRun start(MockMvc mvc, String uri) {
		return new BackgroundRun(CompletableFuture.supplyAsync(() -> {
			try {
				return mvc.perform(get(uri)).andReturn().getResponse();
			}
			catch (Exception ex) {
				throw new IllegalStateException(uri, ex);
			}
		}));
	}

	/**
	 * {@code GET /pipeset/3000000?batchSize=batch}, once Redis holds the first key of its
	 * third batch: batches are sent one after another, so batches 1 and 2 are done.
	 */
	public static BackgroundRun longPipelinedSet(MockMvc mvc, StandaloneRedis redis, KeySpace keys, int batch) {
		return start(mvc, "/pipeset/3000000?batchSize=" + batch).awaitKey(redis, keys.key(2L * batch));
	}

	/**
	 * Waits until {@code key} exists on {@code redis}: runs write their keys in order, so
	 * a run that wrote it has got at least that far.
	 */
	public BackgroundRun awaitKey(StandaloneRedis redis, String key) {
		try (Jedis jedis = Topologies.jedis(redis.process())) {
			await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(5)).until(() -> jedis.exists(key));
		}
		return this;
	}

	/**
	 * Does {@code action} to Redis mid-run (kill it, pause it) and waits for the run's
	 * answer, timed from the action.
	 */
	public Answer answerAfter(Runnable action, Duration timeout) {
		action.run();
		long start = System.nanoTime();
		MockHttpServletResponse response = answer(timeout);
		return new Answer(response, Duration.ofNanos(System.nanoTime() - start));
	}

	/** The run's answer, failing the test if it takes longer than {@code timeout}. */
	public MockHttpServletResponse answer(Duration timeout) {
		try {
			return this.answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("The background run gave no answer", ex);
		}
	}

	/** The run's answer and how long after the action it came. */
	public record Answer(MockHttpServletResponse response, Duration after) {

		/**
		 * The 503 problem of a run of {@link #longPipelinedSet} cut short, after checking
		 * that it counts the whole batches Redis acknowledged (at least the two awaited)
		 * and leaves the batch in flight unconfirmed.
		 */
		public DocumentContext cutShortProblem(int batch) throws Exception {
			assertThat(this.response.getStatus()).isEqualTo(503);
			assertThat(this.response.getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			DocumentContext problem = JsonPath.parse(this.response.getContentAsString());
			long batchesCompleted = problem.read("$.batchesCompleted", Long.class);
			assertThat(batchesCompleted).isBetween(2L, 299L);
			assertThat(problem.read("$.acknowledged", Long.class)).isEqualTo(batchesCompleted * batch);
			assertThat(problem.read("$.unconfirmed", Long.class)).isEqualTo(batch);
			return problem;
		}

	}

}
