package dev.pipelininglab.reliability;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.pipelininglab.testsupport.OwnRedis;
import dev.pipelininglab.testsupport.SlowTest;
import dev.pipelininglab.testsupport.StandaloneRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * A Redis that holds other people's data, look-alike keys included, goes through a full
 * session of every endpoint and a cleanup: their keys come out byte for byte as they went
 * in, with their expiries, and every command the app sent (watched with MONITOR) touched
 * only keys under the demo prefix. No FLUSHALL, FLUSHDB, KEYS, CONFIG, EVAL of script
 * text, or anything else outside a short allow-list ever reached the server.
 */
@SpringBootTest
// A server of this class's own, so MONITOR sees this session's commands and nothing else.
@SlowTest
@OwnRedis
@AutoConfigureMockMvc
class DataSafetyTests {

	private static final String OWN = "pipelining-lab:";

	/**
	 * Keys that are not the lab's, several of them one character away from its prefix or
	 * glob-like.
	 */
	private static final List<String> FOREIGN = List.of("someone-else:key", "pipelining-labX:key:1",
			"other:pipelining-lab:key:1", "pipelining-lab", "pipelining-lab-list", "PIPELINING-LAB:key:1",
			"pipelining-lab*", "pipelining-lab?key:1", "pipelining-lab[:]key:1", "pipelining-lab\\:key:1",
			"pipelining_lab:key:1", " pipelining-lab:key:1");

	/** Every endpoint and option a person can reach. */
	private static final List<String> SESSION = List.of("/pipeset/200", "/pipeset/100?ttl=600",
			"/pipeset/300?flushPolicy=buffered-16", "/pipeget/300", "/listinput/200", "/piperpop/100", "/pipeping/100",
			"/loopset/100", "/loopset/50?ttl=600", "/loopget/100", "/looprpop/50", "/loopping/50", "/compare/set/200",
			"/compare/get/200?repeat=2", "/compare/rpop/200", "/compare/ping/100",
			"/compare/set/100?variants=loop,pipelined&rtt=1", "/sweep/set/200?batchSizes=10,100", "/sweep/get/200",
			"/sweep/rpop/100?batchSizes=50", "/sweep/ping/100", "/", "/actuator/health");

	/**
	 * Attempts to smuggle keys, prefixes, commands or scripts in: every one is a 4xx that
	 * sends nothing.
	 */
	private static final List<String> REFUSED = List.of("/compare/someone-else:key/10", "/compare/flushall/10",
			"/sweep/keys/10", "/pipeset/someone-else:key", "/compare/eval/10",
			"/pipeset/10?key=someone-else:key&prefix=someone-else&keyPrefix=x&lab.key-prefix=x",
			"/pipeget/10?script=redis.call('FLUSHALL')&command=FLUSHALL");

	@Autowired
	StandaloneRedis redis;

	@Autowired
	MockMvc mvc;

	@Test
	void aFullSessionAndCleanupTouchOnlyTheDemoPrefix() throws Exception {
		RedisClient client = RedisClient.create();
		try (StatefulRedisConnection<byte[], byte[]> db0 = client.connect(ByteArrayCodec.INSTANCE,
				RedisURI.create(this.redis.host(), this.redis.port()));
				StatefulRedisConnection<byte[], byte[]> db1 = client.connect(ByteArrayCodec.INSTANCE,
						RedisURI.builder()
							.withHost(this.redis.host())
							.withPort(this.redis.port())
							.withDatabase(1)
							.build())) {
			for (String key : FOREIGN) {
				db0.sync().set(bytes(key), bytes("belongs to someone else"));
			}
			db0.sync().rpush(bytes("someone:list"), bytes("a"), bytes("b"));
			db0.sync().hset(bytes("pipelining-lab-hash"), bytes("field"), bytes("value"));
			db0.sync().setex(bytes("someone:expiring"), 3600, bytes("with a ttl"));
			db1.sync().set(bytes(OWN + "key:0"), bytes("the lab's name, but another database"));
			Map<String, byte[]> before = dumpAll(db0);
			byte[] otherDatabase = db1.sync().dump(bytes(OWN + "key:0"));

			int requests = 0;
			try (Monitor monitor = new Monitor(this.redis.host(), this.redis.port(), DataSafetyTests::check)) {
				for (String uri : SESSION) {
					assertStatus(this.mvc.perform(get(uri)).andReturn(), uri, 200);
					requests++;
				}
				for (String uri : REFUSED) {
					assertThat(this.mvc.perform(get(uri)).andReturn().getResponse().getStatus()).as(uri)
						.isBetween(400, 499);
					requests++;
				}
				assertStatus(this.mvc.perform(delete("/keys")).andReturn(), "DELETE /keys", 200);
				requests++;
				db0.sync().ping();
				db0.sync().echo(bytes("session-done"));
				monitor.awaitMarker("session-done", 10_000);
				System.out.printf(
						"[reliability] data safety: %d requests, %d Redis commands watched %s, %d"
								+ " foreign keys checked%n",
						requests, monitor.commands(), monitor.byName(), before.size() + 1);
				assertThat(monitor.violations()).isEmpty();
				assertThat(monitor.commands()).isGreaterThan(10_000);
			}

			Map<String, byte[]> after = dumpAll(db0);
			assertThat(after.keySet()).containsExactlyInAnyOrderElementsOf(before.keySet());
			for (Map.Entry<String, byte[]> entry : before.entrySet()) {
				assertThat(after.get(entry.getKey())).as(entry.getKey()).isEqualTo(entry.getValue());
			}
			assertThat(db0.sync().ttl(bytes("someone:expiring"))).isBetween(3000L, 3600L);
			assertThat(db1.sync().dump(bytes(OWN + "key:0"))).isEqualTo(otherDatabase);
		}
		finally {
			client.shutdown();
		}
	}

	/** Only the commands the lab needs, and every key they name under the prefix. */
	static String check(List<String> command) {
		String name = command.get(0).toUpperCase(java.util.Locale.ROOT);
		List<String> args = command.subList(1, command.size());
		return switch (name) {
			// Connection handshake, health check, latency probe, the cleanup's marker,
			// the server clock that dates the connections a run used.
			case "HELLO", "CLIENT", "INFO", "PING", "ECHO", "SELECT", "COMMAND", "TIME" -> null;
			case "SCRIPT" -> args.get(0).equalsIgnoreCase("LOAD") ? null : "SCRIPT " + args.get(0);
			// GETEX: the read-back, which gives the key its expiry.
			case "SET", "GET", "GETEX", "RPOP", "RPUSH", "EXPIRE", "PEXPIRE", "PTTL" -> own(args.subList(0, 1));
			// A run's record, the index listing it and the live runs the sweep reads (and
			// a
			// run, for the others beside it).
			case "SETEX", "ZADD", "ZREM", "ZRANGE", "ZRANGEBYSCORE", "ZREMRANGEBYRANK" -> own(args.subList(0, 1));
			// The preflight's sample: what one item costs.
			case "MEMORY" -> args.get(0).equalsIgnoreCase("USAGE") ? own(args.subList(1, 2)) : "MEMORY " + args.get(0);
			case "UNLINK", "MGET", "EXISTS" -> own(args);
			case "MSET" -> own(java.util.stream.IntStream.range(0, args.size())
				.filter((i) -> i % 2 == 0)
				.mapToObj(args::get)
				.toList());
			// EVAL only as the script variant's first use of one of its constant scripts
			// on a server.
			case "EVALSHA", "EVAL" -> own(args.subList(2, 2 + Integer.parseInt(args.get(1))));
			case "SCAN" -> {
				int match = args.stream()
					.map((arg) -> arg.toUpperCase(java.util.Locale.ROOT))
					.toList()
					.indexOf("MATCH");
				yield (match > 0 && args.get(match + 1).startsWith(OWN)) ? null : "SCAN without the prefix";
			}
			default -> "unexpected command " + name;
		};
	}

	private static String own(List<String> keys) {
		return keys.stream().allMatch((key) -> key.startsWith(OWN)) ? null : "key outside the prefix";
	}

	private static void assertStatus(MvcResult result, String what, int expected) throws Exception {
		assertThat(result.getResponse().getStatus()).as(what + ": " + result.getResponse().getContentAsString())
			.isEqualTo(expected);
	}

	/**
	 * Every key of the database with its DUMP (type, value and encoding) and expiry flag;
	 * SCAN, never KEYS.
	 */
	private static Map<String, byte[]> dumpAll(StatefulRedisConnection<byte[], byte[]> connection) {
		Map<String, byte[]> dumps = new LinkedHashMap<>();
		io.lettuce.core.ScanIterator.scan(connection.sync(), io.lettuce.core.ScanArgs.Builder.limit(1000))
			.forEachRemaining((key) -> dumps.put(new String(key, java.nio.charset.StandardCharsets.UTF_8),
					concat(connection.sync().dump(key),
							connection.sync().ttl(key) > 0 ? new byte[] { 1 } : new byte[] { 0 })));
		return dumps;
	}

	private static byte[] concat(byte[] a, byte[] b) {
		byte[] both = Arrays.copyOf(a, a.length + b.length);
		System.arraycopy(b, 0, both, a.length, b.length);
		return both;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

}
