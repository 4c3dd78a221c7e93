package dev.pipelininglab.run;

import org.HdrHistogram.Histogram;

/**
 * One HdrHistogram per timed pass, in nanoseconds. Not thread-safe: concurrent clients
 * each keep one and {@link #add} them into the pass's.
 */
final class LatencyRecorder {

	/** Within 0.1% at any magnitude, at a few tens of kilobytes per histogram. */
	private static final int SIGNIFICANT_DIGITS = 3;

	private final Latency.Per per;

	private final Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);

	LatencyRecorder(Latency.Per per) {
		this.per = per;
	}

	Latency.Per per() {
		return this.per;
	}

	void record(long nanos) {
		this.histogram.recordValue(Math.max(0, nanos));
	}

	void add(LatencyRecorder other) {
		this.histogram.add(other.histogram);
	}

	Latency latency() {
		return Latency.of(this.per, this.histogram.copy());
	}

}
