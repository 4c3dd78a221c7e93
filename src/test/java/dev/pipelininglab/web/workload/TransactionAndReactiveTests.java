package dev.pipelininglab.web.workload;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;

import dev.pipelininglab.localredis.RedisServerProcess;
import dev.pipelininglab.testsupport.NodeStats;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * "Is MULTI/EXEC the same as a pipeline?" and "does the reactive template pipeline for
 * me?": the transaction, pipelined-transaction and reactive variants write and read back
 * the same keys as the others, wrap every batch in MULTI ... EXEC as the server counts
 * it, and a transaction is atomic: a reader never sees half a batch.
 */
@SpringBootTest
@SharedRedis
@AutoConfigureMockMvc
class TransactionAndReactiveTests {

	@Autowired
	MockMvc mvc;

	@Autowired
	StandaloneRedis redis;

	@Test
	void everyNewVariantWritesAndReadsBackEveryKey() throws Exception {
		this.redis.flushAll();
		for (String op : List.of("set", "get")) {
			this.mvc
				.perform(get("/compare/" + op
						+ "/3000?batchSize=500&repeat=1&variants=pipelined,transaction,pipelined-transaction,reactive"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.results[*].variant").value(contains(startsWith("pipelined-"), is("transaction"),
						is("pipelined-transaction"), is("reactive"))))
				.andExpect(jsonPath("$.results[*].verified").value(everyItem(is(3000))));
		}
	}

	@Test
	void jedisRunsTransactionsButNotInsideAPipeline() throws Exception {
		this.redis.flushAll();
		this.mvc
			.perform(get(
					"/compare/set/2000?batchSize=500&repeat=1&variants=jedis-transaction,jedis-pipelined-transaction"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.results[0].verified").value(2000))
			.andExpect(jsonPath("$.skipped[0].variant").value("jedis-pipelined-transaction"))
			.andExpect(jsonPath("$.skipped[0].reason", containsString("Cannot use Transaction")));
	}

	@Test
	void eachTransactionBatchIsOneMultiAndOneExecOnTheServer() throws Exception {
		this.redis.flushAll();
		RedisServerProcess server = this.redis.process();
		long multi = NodeStats.calls(server, "MULTI");
		long exec = NodeStats.calls(server, "EXEC");
		for (String variant : List.of("transaction", "pipelined-transaction")) {
			this.mvc.perform(get("/compare/set/2000?batchSize=500&repeat=1&variants=" + variant))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$.results[0].verified").value(2000));
		}
		// Four batches a pass; the warm-up's transactions are counted too, so at least.
		assertThat(NodeStats.calls(server, "MULTI") - multi).isGreaterThanOrEqualTo(8);
		assertThat(NodeStats.calls(server, "EXEC") - multi).isEqualTo(NodeStats.calls(server, "MULTI") - multi);
		assertThat(NodeStats.calls(server, "EXEC") - exec).isEqualTo(NodeStats.calls(server, "MULTI") - multi);
	}

	@Test
	void aReaderNeverSeesHalfATransaction() throws Exception {
		this.redis.flushAll();
		Set<String> seen = ConcurrentHashMap.newKeySet();
		RedisClient client = RedisClient.create(RedisURI.create(this.redis.host(), this.redis.port()));
		try (StatefulRedisConnection<String, String> reader = client.connect()) {
			CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
				try {
					this.mvc.perform(get("/compare/incr/40000?batchSize=1000&repeat=3&variants=transaction"))
						.andExpect(status().isOk())
						.andExpect(jsonPath("$.results[0].verified").value(40000));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			while (!run.isDone()) {
				String counter = reader.sync().get("pipelining-lab:counter");
				if (counter != null) {
					seen.add(counter);
				}
			}
			run.join();
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
		// INCRs of one batch land together: the counter moves in steps of a whole batch.
		assertThat(seen).isNotEmpty().allMatch((value) -> Long.parseLong(value) % 1000 == 0);
		assertThat(seen).anyMatch((value) -> Long.parseLong(value) > 0);
	}

	@Test
	void jedisHasNoReactiveVariantAndSaysSo() throws Exception {
		this.mvc.perform(get("/compare/set/100?variants=loop,jedis-reactive"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.skipped[0].variant").value("jedis-reactive"))
			.andExpect(jsonPath("$.skipped[0].reason", containsString("Lettuce only")));
	}

}
