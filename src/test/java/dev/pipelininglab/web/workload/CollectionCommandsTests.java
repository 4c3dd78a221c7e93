package dev.pipelininglab.web.workload;

import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import dev.pipelininglab.testsupport.SharedRedis;
import dev.pipelininglab.web.MockMvcOnTestRedis;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-key collection writes (HSET, SADD, ZADD, LPUSH) share their batch, script,
 * read-back and note through one base class: every variant that sends them writes and
 * reads back every item, and each answer's note says what its one key holds, as it did
 * when each class spelled it out.
 */
@SharedRedis
class CollectionCommandsTests extends MockMvcOnTestRedis {

	private static final Map<String, String> NOTES = Map.of("hset",
			" with 300 fields (field:<i>), not 300 keys, one HMSET (HSET with many field-value pairs) per batch.",
			"sadd", " a set with 300 members, not 300 keys, one SADD with many arguments per batch.", "zadd",
			" a sorted set with 300 members scored by their index, not 300 keys, one ZADD with many arguments per"
					+ " batch.",
			"lpush", "LPUSH pushes 300 elements onto one key, ");

	@Test
	void everyVariantWritesAndReadsBackEveryItemAndTheNoteSaysWhatTheOneKeyHolds() throws Exception {
		for (String op : List.of("hset", "sadd", "zadd", "lpush")) {
			String body = okBody("/compare/" + op
					+ "/300?batchSize=100&valueSize=40&variants=loop,pipelined,multi-key,script,async,transaction");
			List<String> variants = JsonPath.read(body, "$.results[*].variant");
			assertThat(variants).as(op).hasSize(6).startsWith("loop").contains("multi-key", "script", "transaction");
			assertThat(variants.get(2)).isEqualTo("multi-key");
			assertThat(JsonPath.<List<Integer>>read(body, "$.results[*].verified")).as(op).containsOnly(300);
			String multiKey = JsonPath.read(body, "$.results[2].note");
			assertThat(multiKey).as(op).contains(NOTES.get(op));
			if (!op.equals("lpush")) {
				assertThat(multiKey).as(op).startsWith(op.toUpperCase(java.util.Locale.ROOT) + " writes one key, ");
			}
		}
	}

}
