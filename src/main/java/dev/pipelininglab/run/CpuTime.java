package dev.pipelininglab.run;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The app's CPU clocks, read around a timed pass (never inside it) for
 * {@link Bottleneck}; a clock the JVM does not offer reads -1.
 */
final class CpuTime {

	/** Lettuce names every thread of its ClientResources so. */
	static final String LETTUCE = "lettuce-";

	/** NodeGroupedRunner's per-node senders. */
	static final String NODE_SENDERS = "node-pipeline-";

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final OperatingSystemMXBean SYSTEM = ManagementFactory.getOperatingSystemMXBean();

	private static final boolean THREAD_CPU = threadCpu();

	private CpuTime() {
	}

	private static boolean threadCpu() {
		try {
			if (THREADS.isThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
				THREADS.setThreadCpuTimeEnabled(true);
			}
			return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** On Linux the JVM counts the process's CPU in 10 ms ticks. */
	static long process() {
		return (SYSTEM instanceof com.sun.management.OperatingSystemMXBean system) ? system.getProcessCpuTime() : -1;
	}

	/** Since the previous call: the read before a pass opens the window. */
	static double machine() {
		double load = (SYSTEM instanceof com.sun.management.OperatingSystemMXBean system) ? system.getCpuLoad() : -1;
		return (load >= 0 && Double.isFinite(load)) ? load : -1;
	}

	static long thread() {
		return THREAD_CPU ? THREADS.getCurrentThreadCpuTime() : -1;
	}

	/** The CPU time of every live thread whose name starts with {@code prefix}, by id. */
	static Map<Long, Long> named(String prefix) {
		Map<Long, Long> cpu = new HashMap<>();
		if (!THREAD_CPU) {
			return cpu;
		}
		for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
			if (info != null && info.getThreadName().startsWith(prefix)) {
				long nanos = THREADS.getThreadCpuTime(info.getThreadId());
				if (nanos >= 0) {
					cpu.put(info.getThreadId(), nanos);
				}
			}
		}
		return cpu;
	}

	/** A thread started in between counts from 0; -1 when none was read. */
	static long busiest(Map<Long, Long> before, Map<Long, Long> after) {
		return after.entrySet()
			.stream()
			.mapToLong((thread) -> thread.getValue() - before.getOrDefault(thread.getKey(), 0L))
			.max()
			.orElse(-1);
	}

	record Reading(long wallNanos, long process, double machine, Map<Long, Long> lettuce, Map<Long, Long> nodeSenders) {

		static Reading now() {
			return new Reading(System.nanoTime(), CpuTime.process(), CpuTime.machine(), named(LETTUCE),
					named(NODE_SENDERS));
		}

	}

}
