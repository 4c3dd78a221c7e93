package dev.pipelininglab.job;

import java.time.Instant;

import dev.pipelininglab.redis.KeySpace;
import dev.pipelininglab.redis.Reconnects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * A cancel request through Redis, so it reaches a run on whichever instance runs it:
 * {@code <prefix>:run:<id>:cancel}, beside the record, that any instance may write and
 * the one running the run reads at its start and with each heartbeat. With the fleet's
 * secret the flag is signed ({@link FleetChannel}), so only its instances can stop a run;
 * without one, whoever may write the run's keys may stop it too.
 */
@Component
class CancelFlags {

	private static final Logger log = LoggerFactory.getLogger(CancelFlags.class);

	private final StringRedisTemplate redis;

	private final FleetChannel signer;

	private final Reconnects reconnects;

	private final String stem;

	private final JobProperties settings;

	CancelFlags(StringRedisTemplate redis, FleetChannel signer, Reconnects reconnects, KeySpace keys,
			JobProperties settings) {
		this.redis = redis;
		this.signer = signer;
		this.reconnects = reconnects;
		this.stem = keys.prefix() + ":run:";
		this.settings = settings;
	}

	/** Where it runs here, the flag in memory is enough when Redis cannot take it. */
	RunRecord cancel(RunRecord record, @Nullable ActiveRun local) {
		if (record.status().terminal()) {
			throw record.finished();
		}
		if (local != null) {
			local.requestCancel();
		}
		try {
			String at = Instant.now().toString();
			String flag = this.signer.signs() ? this.signer.sign(context(record.id()), at) : at;
			this.redis.opsForValue().set(this.stem + record.id() + ":cancel", flag, this.settings.recordTtl());
		}
		catch (RuntimeException ex) {
			if (local == null) {
				throw ex;
			}
			log.debug("Cannot record the cancel of run {} in Redis: {}", record.id(), ex.getMessage());
		}
		return record.withCancelRequested();
	}

	boolean requested(String id) {
		String flag = this.redis.opsForValue().get(this.stem + id + ":cancel");
		return flag != null && signed(id, flag);
	}

	/** With each heartbeat; a connection still being made is waited for. */
	void pickUp(ActiveRun run) {
		if (!run.cancelRequested() && this.reconnects.awaiting(() -> requested(run.id))) {
			run.requestCancel();
		}
	}

	private boolean signed(String id, String flag) {
		if (!this.signer.signs() || this.signer.verified(context(id), flag) != null) {
			return true;
		}
		this.signer.drop("a cancel flag of run " + id + " not signed with this fleet's lab.fleet.secret");
		return false;
	}

	private static String context(String id) {
		return "cancel " + id + " ";
	}

}
