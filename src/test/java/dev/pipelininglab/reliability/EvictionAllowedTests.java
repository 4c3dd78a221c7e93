package dev.pipelininglab.reliability;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * With {@code lab.safety.allow-eviction=true} an operator who owns the server lets a run
 * go past {@code maxmemory} under {@code allkeys-lru}: it runs, and every answer says
 * Redis evicted keys, and why verification came up short.
 */
@SpringBootTest(properties = "lab.safety.allow-eviction=true")
@OwnRedis
@AutoConfigureMockMvc
@SlowTest
class EvictionAllowedTests {

	@Autowired
	StandaloneRedis redis;

	@Autowired
	MockMvc mvc;

	@Test
	void aRunThatEvictsSaysSoInEveryAnswer() throws Exception {
		try (Admin admin = Admin.connect(this.redis.host(), this.redis.port())) {
			admin.sync().configSet("maxmemory", "30mb");
			admin.sync().configSet("maxmemory-policy", "allkeys-lru");
			SharedRedisSafetyTests.writeCanaries(admin);

			// 50 MB of values through a 30 MB server (the 200,000 values take
			// longer, to the same end).
			String body = answer("/pipeset/50000?valueSize=1000", "application/json");
			DocumentContext json = JsonPath.parse(body);
			assertThat(json.read("$.server.evictedKeys", Long.class)).as(body).isPositive();
			assertThat(json.read("$.verified", Long.class)).isLessThan(50_000L);
			assertThat(json.<String>read("$.note")).contains("Redis evicted", "were missing: evicted");
			System.out.printf("[reliability] eviction allowed: %s%n", json.<String>read("$.note"));

			String text = answer("/pipeset/40000?valueSize=1000&columns=all", "text/plain");
			assertThat(text).contains("warning: pipelined-buffered-500: Redis evicted", "evicted keys");
			String csv = answer("/pipeset/40000?valueSize=1000", "text/csv");
			assertThat(csv.lines().findFirst().orElseThrow()).as(csv).contains("evicted keys");
		}
	}

	private String answer(String uri, String accept) throws Exception {
		MockHttpServletResponse response = this.mvc.perform(get(uri).header("Accept", accept))
			.andReturn()
			.getResponse();
		assertThat(response.getStatus()).as(uri + ": " + response.getContentAsString()).isEqualTo(200);
		return response.getContentAsString();
	}

}
