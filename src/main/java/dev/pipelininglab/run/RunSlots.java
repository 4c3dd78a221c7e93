package dev.pipelininglab.run;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

/**
 * The one limit on runs: {@code lab.admission.max-concurrent} slots that GET runs and
 * jobs take alike, so a Redis never has more of this instance's measurements on it than
 * that, however they arrived. Fair: under a burst, runs are served in the order they
 * asked.
 */
@Component
public class RunSlots {

	private final AdmissionProperties admission;

	private final Semaphore permits;

	public RunSlots(AdmissionProperties admission) {
		this.admission = admission;
		this.permits = new Semaphore(admission.maxConcurrent(), true);
	}

	/** Waits at most {@code lab.admission.max-wait}. */
	public boolean take() throws InterruptedException {
		return take(maxWait());
	}

	public boolean takeFree() {
		return this.permits.tryAcquire();
	}

	public boolean take(Duration wait) throws InterruptedException {
		return this.permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
	}

	public void release() {
		this.permits.release();
	}

	/** Slots taken now, by GET runs and jobs together. */
	public int inUse() {
		return max() - this.permits.availablePermits();
	}

	public int queued() {
		return this.permits.getQueueLength();
	}

	public int max() {
		return this.admission.maxConcurrent();
	}

	public Duration maxWait() {
		return this.admission.maxWait();
	}

}
