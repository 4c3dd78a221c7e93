package dev.pipelininglab.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.run.WarmUpProperties;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import io.lettuce.core.KeyValue;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Pipelines are not atomic: when Redis refuses some commands of a batch it still runs the
 * others. The answer is a 409 problem that counts what took effect, and for SET the keys
 * it reports as written are exactly the keys Redis holds afterwards: nothing written goes
 * unreported.
 */
// Without the memory preflight, which would refuse the runs into a full Redis before they
// start.
@SpringBootTest(properties = "lab.safety.preflight=false")
// A server of this class's own: its memory limit is changed, which must not leak into
// other tests.
@OwnRedis
@SlowTest
class PartialPipelineFailureTests extends MockMvcOnEmptyOwnRedis {

	private static final String ERROR_REPLY = "urn:pipelining-lab:problem:redis-error-reply";

	@Autowired
	WarmUpProperties warmUp;

	@Test
	void wrongTypeInsideAPipelinedGetIsA409CountingEveryOtherReply() throws Exception {
		this.mvc.perform(get("/pipeset/1000")).andExpect(status().isOk());
		// Someone turned one of the demo keys into a list: batch 2 of 4 (keys 300..599)
		// holds it.
		this.admin.sync().del(this.keys.key(500));
		this.admin.sync().rpush(this.keys.key(500), "now a list");

		this.mvc.perform(get("/pipeget/1000?batchSize=300"))
			.andExpect(status().isConflict())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(ERROR_REPLY))
			.andExpect(jsonPath("$.detail").value(containsString("WRONGTYPE")))
			.andExpect(jsonPath("$.detail").value(containsString("300 commands succeeded")))
			.andExpect(jsonPath("$.batchesCompleted").value(1))
			.andExpect(jsonPath("$.batchesTotal").value(4))
			// The first batch; Spring Data Redis 4.1 reports nothing about the 299 GETs
			// beside the refused one.
			.andExpect(jsonPath("$.acknowledged").value(300))
			.andExpect(jsonPath("$.rejected").value(1))
			.andExpect(jsonPath("$.unconfirmed").value(299))
			.andExpect(jsonPath("$.trace").doesNotExist());

		this.mvc.perform(get("/loopget/1000"))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.type").value(ERROR_REPLY))
			.andExpect(jsonPath("$.acknowledged").value(500))
			.andExpect(jsonPath("$.rejected").value(1));
		assertThat(this.admin.sync().get(this.keys.key(499))).isEqualTo("value-499");
		assertThat(this.admin.sync().lrange(this.keys.key(500), 0, -1)).containsExactly("now a list");
	}

	@Test
	void pipelinedSetIntoAFullRedisReportsExactlyTheKeysItWrote() throws Exception {
		// A mode's first runs warm up until it has sent lab.warm-up.jit-items for the
		// JIT; have that behind us, so the failure comes in the timed pass. A run of half
		// as many is that many with its warm-up.
		this.mvc.perform(get("/pipeset/" + Math.max(1, this.warmUp.jitItems() / 2) + "?sample=0"))
			.andExpect(status().isOk());
		this.mvc.perform(delete("/keys")).andExpect(status().isOk());
		// Room for a few tens of thousands of keys, then Redis refuses writes (OOM)
		// instead of evicting.
		this.admin.sync().configSet("maxmemory-policy", "noeviction");
		this.admin.sync().configSet("maxmemory", Long.toString(this.admin.usedMemory() + 4 * 1024 * 1024));

		String body = this.mvc.perform(get("/pipeset/300000?batchSize=10000"))
			.andExpect(status().isConflict())
			.andExpect(content().contentType(MediaType.APPLICATION_PROBLEM_JSON))
			.andExpect(jsonPath("$.type").value(ERROR_REPLY))
			.andExpect(jsonPath("$.detail").value(containsString("OOM")))
			.andExpect(jsonPath("$.rejected").value(1))
			.andExpect(jsonPath("$.unconfirmed").value(9_999))
			.andReturn()
			.getResponse()
			.getContentAsString();

		DocumentContext problem = JsonPath.parse(body);
		long written = number(problem, "$.written");
		long verified = number(problem, "$.verified");
		long batchesCompleted = number(problem, "$.batchesCompleted");
		System.out.printf("[reliability] full Redis, pipelined: %s%n", body);
		assertThat(batchesCompleted).isBetween(1L, 29L);
		// Confirmed: every SET of the batches before the failing one.
		assertThat(written).isEqualTo(batchesCompleted * 10_000).isEqualTo(number(problem, "$.acknowledged"));
		// Read back: those, plus whatever the failing batch wrote before Redis filled up.
		assertThat(verified).isBetween(written, written + 9_999);
		this.admin.sync().configSet("maxmemory", "0");
		assertThat(keysHoldingTheirValue()).isEqualTo(verified);
	}

	@Test
	void loopSetIntoAFullRedisReportsExactlyTheKeysItWrote() throws Exception {
		this.admin.sync().configSet("maxmemory-policy", "noeviction");
		this.admin.sync().configSet("maxmemory", Long.toString(this.admin.usedMemory() + 1024 * 1024));

		String body = this.mvc.perform(get("/loopset/50000"))
			.andExpect(status().isConflict())
			.andExpect(jsonPath("$.type").value(ERROR_REPLY))
			.andExpect(jsonPath("$.detail").value(containsString("OOM")))
			.andExpect(jsonPath("$.rejected").value(1))
			.andReturn()
			.getResponse()
			.getContentAsString();

		System.out.printf("[reliability] full Redis, loop: %s%n", body);
		DocumentContext problem = JsonPath.parse(body);
		long written = number(problem, "$.written");
		assertThat(written).isBetween(1L, 49_999L);
		assertThat(number(problem, "$.verified")).isEqualTo(written);
		this.admin.sync().configSet("maxmemory", "0");
		assertThat(keysHoldingTheirValue()).isEqualTo(written);
	}

	/**
	 * Demo keys in Redis, each checked to hold exactly the value the lab writes for it;
	 * any other key fails.
	 */
	private long keysHoldingTheirValue() {
		Map<String, String> found = new HashMap<>(this.admin.keys(this.keys.prefix() + ":*"));
		// The run history (the GET run's record and its index) is the lab's, not demo
		// data.
		found.keySet().removeIf((key) -> key.startsWith(this.keys.prefix() + ":run"));
		assertThat(found.values()).containsOnly("string");
		List<String> names = new ArrayList<>(found.keySet());
		for (int from = 0; from < names.size(); from += 1000) {
			List<String> chunk = names.subList(from, Math.min(names.size(), from + 1000));
			for (KeyValue<String, String> entry : this.admin.sync().mget(chunk.toArray(new String[0]))) {
				String index = entry.getKey().substring(this.keys.key(0).length() - 1);
				assertThat(entry.getValue()).as(entry.getKey()).isEqualTo("value-" + index);
			}
		}
		return names.size();
	}

	private static long number(DocumentContext json, String path) {
		return json.read(path, Long.class);
	}

}
