package dev.pipelininglab.reliability;

import dev.pipelininglab.testsupport.StandaloneRedis;
import dev.pipelininglab.web.MockMvcOnOwnRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * The app through MockMvc on a standalone Redis of the subclass's own
 * ({@code @OwnRedis}), empty and without a memory limit at the start of each test, and
 * without one again after it, whatever limit the test set.
 */
abstract class MockMvcOnEmptyOwnRedis extends MockMvcOnOwnRedis {

	@Autowired
	StandaloneRedis redis;

	Admin admin;

	@BeforeEach
	void emptyAndUnlimited() {
		this.admin = Admin.onEmptyUnlimitedServer(this.redis.host(), this.redis.port());
	}

	@AfterEach
	void unlimited() {
		this.admin.liftMemoryLimit();
		this.admin.close();
	}

}
