package dev.pipelininglab.run;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The app's CPU clocks, read around a timed pass (never inside it) for
 * {@link Bottleneck}: the process's, the calling thread's, and those of the threads that
 * send for a run besides the clients' own, found by name. A clock the JVM does not offer
 * reads -1.
 */
final class CpuTime {

	/**
	 * Lettuce names every thread of its ClientResources so: event loops, timer, event
	 * bus.
	 */
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

	/**
	 * CPU time of the whole process in nanoseconds; on Linux the JVM counts it in 10 ms
	 * ticks.
	 */
	static long process() {
		if (SYSTEM instanceof com.sun.management.OperatingSystemMXBean system) {
			return system.getProcessCpuTime();
		}
		return -1;
	}

	/**
	 * How busy the whole machine (as the OS or container tells the JVM) was since the
	 * previous call, as a share of its processors; -1 when not known. The JVM keeps the
	 * previous reading, so a read before a pass starts the window the read after it
	 * closes.
	 */
	static double machine() {
		if (SYSTEM instanceof com.sun.management.OperatingSystemMXBean system) {
			double load = system.getCpuLoad();
			return (load >= 0 && Double.isFinite(load)) ? load : -1;
		}
		return -1;
	}

	/** CPU time of the calling thread in nanoseconds. */
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

	/**
	 * The most CPU any one thread used between two readings of {@link #named}; a thread
	 * started in between counts from 0. -1 when no thread was read both times or since.
	 */
	static long busiest(Map<Long, Long> before, Map<Long, Long> after) {
		long most = -1;
		for (Map.Entry<Long, Long> thread : after.entrySet()) {
			long used = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
			most = Math.max(most, used);
		}
		return most;
	}

	/**
	 * One reading of the clocks a pass is judged by.
	 *
	 * @param machine how busy the machine was since the previous reading
	 */
	record Reading(long wallNanos, long process, double machine, Map<Long, Long> lettuce, Map<Long, Long> nodeSenders) {

		static Reading now() {
			return new Reading(System.nanoTime(), CpuTime.process(), CpuTime.machine(), named(LETTUCE),
					named(NODE_SENDERS));
		}

	}

}
