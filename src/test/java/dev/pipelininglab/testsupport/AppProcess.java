package dev.pipelininglab.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.pipelininglab.PipeliningLabApplication;

import static org.assertj.core.api.Assertions.assertThat;

/** The app in a JVM of its own, which a test can kill (SIGKILL, not a close). */
public final class AppProcess {

	private AppProcess() {
	}

	/**
	 * The command line that runs {@code main} with {@code arguments} in a JVM of its own,
	 * on this JVM's java and class path, with the JIT stopped at C1 as the test JVMs run
	 * it: about half the CPU of a start on two cores.
	 */
	public static List<String> java(Class<?> main, List<String> arguments) {
		List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), main.getName()));
		command.addAll(arguments);
		return command;
	}

	/**
	 * Returns once the app says it started; its output goes on being read after, so that
	 * it never blocks on a full pipe.
	 * @param started told of the process before it has started, so a test stops it even
	 * when it never does
	 */
	public static Process start(List<String> arguments, Consumer<Process> started) throws IOException {
		Process child = new ProcessBuilder(java(PipeliningLabApplication.class, arguments)).redirectErrorStream(true)
			.start();
		started.accept(child);
		BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
		StringBuilder seen = new StringBuilder();
		String line;
		while ((line = out.readLine()) != null && !line.contains("Started PipeliningLabApplication")) {
			seen.append(line).append('\n');
		}
		assertThat(line).as(seen::toString).isNotNull();
		Thread drain = new Thread(() -> out.lines().forEach((ignored) -> {
		}), "app-process-output");
		drain.setDaemon(true);
		drain.start();
		return child;
	}

}
