package dev.pipelininglab.web.problem;

import java.util.List;

import dev.pipelininglab.ProblemType;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisPipelineException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Error replies a failover produces mean "try again shortly", so they are a 503 like an
 * unreachable Redis, on the blocking path (Lettuce's exception wrapped by Spring) and the
 * pipelined one (only the reply text survives); an error about the command itself stays a
 * 409.
 */
class RedisFailureFailoverRepliesTests {

	@ParameterizedTest
	@ValueSource(strings = { "TRYAGAIN Multiple keys request during rehashing of slot", "MOVED 3999 127.0.0.1:6381",
			"ASK 3999 127.0.0.1:6381", "READONLY You can't write against a read only replica.",
			"MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
			"LOADING Redis is loading the dataset in memory", "NOREPLICAS Not enough good replicas to write." })
	void failoverRepliesAreUnavailable(String reply) {
		assertThat(RedisFailure.classify(blocking(reply))).isEqualTo(ProblemType.REDIS_UNAVAILABLE);
		assertThat(RedisFailure.classify(pipelined(reply))).isEqualTo(ProblemType.REDIS_UNAVAILABLE);
	}

	/** Named as what it is, so a client can tell it from an unreachable node. */
	@ParameterizedTest
	@ValueSource(strings = { "CLUSTERDOWN The cluster is down", "CLUSTERDOWN Hash slot not served" })
	void clusterDownRepliesSayTheClusterIsDown(String reply) {
		assertThat(RedisFailure.classify(blocking(reply))).isEqualTo(ProblemType.REDIS_CLUSTER_DOWN);
		assertThat(RedisFailure.classify(pipelined(reply))).isEqualTo(ProblemType.REDIS_CLUSTER_DOWN);
	}

	@ParameterizedTest
	@ValueSource(strings = { "WRONGTYPE Operation against a key holding the wrong kind of value",
			"ERR value is not an integer or out of range", "CROSSSLOT Keys in request don't hash to the same slot" })
	void repliesAboutTheCommandStayErrorReplies(String reply) {
		assertThat(RedisFailure.classify(blocking(reply))).isEqualTo(ProblemType.REDIS_ERROR_REPLY);
		assertThat(RedisFailure.classify(pipelined(reply))).isEqualTo(ProblemType.REDIS_ERROR_REPLY);
	}

	private static RuntimeException blocking(String reply) {
		return new RedisSystemException("Error in execution", new RedisCommandExecutionException(reply));
	}

	private static RuntimeException pipelined(String reply) {
		InvalidDataAccessApiUsageException failed = new InvalidDataAccessApiUsageException(reply);
		return new RedisPipelineException(failed, List.of(failed));
	}

}
