package dev.pipelininglab.web;

import java.util.List;

import dev.pipelininglab.config.LabConfiguration;
import dev.pipelininglab.job.RunExecutor;
import dev.pipelininglab.redis.ClientSettings;
import dev.pipelininglab.redis.KeyCleaner;
import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.RedisDiagnosis;
import dev.pipelininglab.redis.Topology;
import dev.pipelininglab.run.RunService;
import dev.pipelininglab.run.RunSlots;
import dev.pipelininglab.web.guard.SecurityProperties;
import dev.pipelininglab.web.job.RunEvents;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Only the web layer ({@code @WebMvcTest} on the subclass, naming its controllers), for
 * the HTTP contract alone: parsing, status codes, problem bodies. Whatever would reach
 * Redis is a stand-in, there only to prove what was, or was not, called; anything that
 * really talks to Redis is tested on a real server instead.
 */
@Import({ RunRequests.class, LabSettings.class, RunSlots.class, WebLayerWithStandIns.Beans.class })
public abstract class WebLayerWithStandIns {

	@Autowired
	protected MockMvc mvc;

	@MockitoBean
	protected RunService runs;

	@MockitoBean
	protected RunExecutor jobs;

	@MockitoBean
	protected RunEvents events;

	@MockitoBean
	protected RedisDiagnosis diagnosis;

	@MockitoBean
	protected ClientSettings settings;

	@MockitoBean
	protected KeyCleaner cleaner;

	@TestConfiguration(proxyBeanMethods = false)
	@Import(LabConfiguration.class)
	@EnableConfigurationProperties(SecurityProperties.class)
	static class Beans {

		@Bean
		KeySpace keySpace() {
			return new KeySpace("pipelining-lab");
		}

		@Bean
		Topology topology() {
			return new Topology(Topology.Kind.STANDALONE, List.of("localhost:6379"));
		}

	}

}
