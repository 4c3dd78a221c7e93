package dev.pipelininglab;

import dev.pipelininglab.testsupport.SlowTest;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The app on a containerised Redis through {@code @ServiceConnection}. Skipped where no
 * Docker engine runs; the same behaviour is covered on real redis-server processes by the
 * endpoint contract tests.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(properties = "lab.local-redis.enabled=false")
@AutoConfigureMockMvc
@Import(RedisContainerConfiguration.class)
@SlowTest
class RedisContainerTests {

	@Autowired
	MockMvc mvc;

	@Test
	void pipelinedSetRunsAgainstTheContainer() throws Exception {
		this.mvc.perform(get("/pipeset/1000"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.verified").value(1000))
			.andExpect(jsonPath("$.topology").value("standalone"));
	}

}
