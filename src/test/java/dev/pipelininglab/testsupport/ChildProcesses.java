package dev.pipelininglab.testsupport;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a test started, seen from outside: test classes run one at a time, so a child
 * process that appears during a test was started by it. (Matching on the command line
 * would not work: redis-server overwrites it with a title.)
 */
public final class ChildProcesses {

	private ChildProcesses() {
	}

	/** The pids of this JVM's live child processes. */
	public static Set<Long> live() {
		return ProcessHandle.current()
			.children()
			.filter(ProcessHandle::isAlive)
			.map(ProcessHandle::pid)
			.collect(Collectors.toSet());
	}

}
