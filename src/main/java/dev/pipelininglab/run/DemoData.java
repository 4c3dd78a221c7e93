package dev.pipelininglab.run;

import java.util.List;

import dev.pipelininglab.redis.KeySpace;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Untimed set-up and checking around measured runs: puts the demo keys or list into the state a run starts
 * from, and reads written keys back. Always pipelined in batches, so it stays quick and bounded at any count.
 */
@Component
class DemoData {

	private final StringRedisTemplate template;

	private final KeySpace keys;

	private final PipelinedRunner pipelined;

	DemoData(StringRedisTemplate template, KeySpace keys, PipelinedRunner pipelined) {
		this.template = template;
		this.keys = keys;
		this.pipelined = pipelined;
	}

	void deleteKeys(long count, int batchSize) {
		for (long from = 0; from < count; from += batchSize) {
			long to = Math.min(count, from + batchSize);
			long start = from;
			this.template.executePipelined((RedisCallback<Object>) (connection) -> {
				for (long i = start; i < to; i++) {
					connection.keyCommands().unlink(this.keys.keyBytes(i));
				}
				return null;
			});
		}
	}

	void writeKeys(long count, int batchSize) {
		fill(Operation.SET, count, batchSize);
	}

	void refillList(long count, int batchSize) {
		this.template.unlink(this.keys.listKey());
		fill(Operation.RPUSH, count, batchSize);
	}

	private void fill(Operation operation, long count, int batchSize) {
		RunSpec spec = new RunSpec(operation, Mode.PIPELINED, count, batchSize, 0, null);
		Tally ignored = new Tally(0);
		for (long from = 0; from < count; from += batchSize) {
			this.pipelined.run(spec, from, Math.min(count, from + batchSize), ignored);
		}
	}

	/**
	 * Reads keys {@code 0..count-1} back and counts those holding exactly the value written; the first
	 * {@code sample} values read go into the tally's sample.
	 */
	long verifyKeys(long count, int batchSize, Tally sample) {
		long verified = 0;
		for (long from = 0; from < count; from += batchSize) {
			long to = Math.min(count, from + batchSize);
			long start = from;
			List<Object> values = this.template.executePipelined((RedisCallback<Object>) (connection) -> {
				for (long i = start; i < to; i++) {
					connection.stringCommands().get(this.keys.keyBytes(i));
				}
				return null;
			});
			long i = start;
			for (Object value : values) {
				if (this.keys.value(i).equals(value)) {
					verified++;
					sample.value((String) value);
				}
				i++;
			}
		}
		return verified;
	}

}
