package dev.pipelininglab.reliability;

import java.time.Duration;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.StandaloneRedis;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A run that fails because Redis is full ({@code maxmemory}, {@code noeviction}) cannot
 * write its final record either. Once Redis takes writes again, the record says FAILED
 * with the real cause within a few heartbeats, not RUNNING until it goes stale and is
 * then called abandoned.
 */
// Without the memory preflight, which would refuse the run before Redis fills up.
@SpringBootTest(properties = { "lab.jobs.stale-after=60s", "lab.jobs.heartbeat=200ms", "lab.safety.preflight=false" })
@OwnRedis
@AutoConfigureMockMvc
class FullRedisRunRecordTests {

	@Autowired
	StandaloneRedis redis;

	@Autowired
	MockMvc mvc;

	@Autowired
	RunExecutor jobs;

	@Test
	void aRunThatFilledRedisIsRecordedFailedWithItsCauseOnceRedisAcceptsWrites() throws Exception {
		String id;
		try (Admin admin = Admin.connect(this.redis.host(), this.redis.port())) {
			admin.sync().configSet("maxmemory-policy", "noeviction");
			admin.sync().configSet("maxmemory", Long.toString(admin.usedMemory() + 4 * 1024 * 1024));
			String body = this.mvc.perform(post("/runs").contentType(MediaType.APPLICATION_JSON).content("""
					{"operation": "set", "mode": "pipelined", "count": 2000000, "batchSize": 10000}"""))
				.andExpect(status().isAccepted())
				.andReturn()
				.getResponse()
				.getContentAsString();
			id = JsonPath.read(body, "$.id");
			// The run has failed once this instance no longer runs it.
			await().atMost(Duration.ofSeconds(60)).until(() -> this.jobs.active() == 0);
			// This instance answers from the final state it keeps in memory at once...
			assertThat(runStatus(id)).as("the record this instance answers while Redis refuses writes")
				.isEqualTo("FAILED");
			// ...while the copy every instance reads is the last one Redis took: QUEUED
			// or
			// RUNNING, or already FAILED when Redis freed the failed batch's query buffer
			// in
			// its cron and took a retry (the run's own expiry no longer holds the
			// connection
			// busy for seconds); never anything else.
			assertThat(storedStatus(admin, id)).as("the record in Redis while it refuses writes")
				.isIn("QUEUED", "RUNNING", "FAILED");
			admin.sync().configSet("maxmemory", "0");
			await().atMost(Duration.ofSeconds(5)).until(() -> "FAILED".equals(storedStatus(admin, id)));
			String stored = admin.sync().get("pipelining-lab:run:" + id);
			assertThat(JsonPath.<String>read(stored, "$.problem.type")).as(stored)
				.isEqualTo("urn:pipelining-lab:problem:redis-error-reply");
			assertThat(JsonPath.<String>read(stored, "$.problem.detail")).as(stored).contains("OOM");
		}
	}

	private static String storedStatus(Admin admin, String id) {
		String stored = admin.sync().get("pipelining-lab:run:" + id);
		return (stored != null) ? JsonPath.read(stored, "$.status") : "absent";
	}

	private String runStatus(String id) throws Exception {
		return JsonPath.read(this.mvc.perform(get("/runs/" + id)).andReturn().getResponse().getContentAsString(),
				"$.status");
	}

}
