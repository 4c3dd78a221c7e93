package dev.pipelininglab.web;

import java.util.List;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.ReplicaSync;
import dev.pipelininglab.testsupport.SpringRedis;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The app through MockMvc on the test Redis its subclass names ({@code @SharedRedis} or
 * {@code @OwnRedis}), emptied before each test, with the app's own template, key naming
 * and replica sync to check what a request left in Redis.
 */
@SpringBootTest
@AutoConfigureMockMvc
public abstract class MockMvcOnTestRedis {

	@Autowired
	protected MockMvc mvc;

	@Autowired
	protected StringRedisTemplate redis;

	@Autowired
	protected KeySpace keys;

	@Autowired
	protected ReplicaSync replicas;

	/** The servers of the subclass's topology. */
	@Autowired
	protected SpringRedis testRedis;

	/** Empties only the test's own servers, so each test starts from nothing. */
	@BeforeEach
	void startEmpty() {
		this.testRedis.flushAll();
	}

	/**
	 * The body of {@code GET uri}, after checking it answered 200 and whatever else is
	 * {@code expected}.
	 */
	protected String okBody(String uri, ResultMatcher... expected) throws Exception {
		ResultActions answer = this.mvc.perform(get(uri));
		MockHttpServletResponse response = answer.andReturn().getResponse();
		String body = response.getContentAsString();
		// The problem's detail says why a run failed; a bare "was:<503>" does not.
		assertThat(response.getStatus()).as("GET %s answered %s", uri, body).isEqualTo(200);
		answer.andExpectAll(expected);
		return body;
	}

	/**
	 * {@code field} of each result of a comparison or sweep answer, in the order they
	 * ran: {@code results(body, "keySpace.hitRate")}.
	 */
	protected static <T> List<T> results(String body, String field) {
		return JsonPath.read(body, "$.results[*]." + field);
	}

	/**
	 * {@code GET path} is a 400 naming {@code parameter}, its detail saying
	 * {@code message}.
	 */
	protected void expectBad(String path, String parameter, String message) throws Exception {
		this.mvc.perform(get(path))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value(parameter))
			.andExpect(jsonPath("$.detail", containsString(message)));
	}

}
