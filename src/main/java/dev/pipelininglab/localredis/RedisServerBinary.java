package dev.pipelininglab.localredis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Finds a {@code redis-server} executable: a configured one, else the one on the
 * {@code PATH}, else the one bundled in the embedded-redis jar for this OS and CPU, so
 * that a machine with only a JDK can still run Redis.
 */
public final class RedisServerBinary {

	private static final String EXECUTABLE = "redis-server";

	private static final Pattern VERSION = Pattern.compile("v=([0-9][0-9.]*)");

	private static final String INSTALL_HINT = "Install Redis (e.g. 'apt-get install redis-server' or "
			+ "'brew install redis') so that redis-server is on the PATH, or point lab.local-redis.binary at one.";

	private RedisServerBinary() {
	}

	/**
	 * Resolves the binary to run.
	 * @param configuredPath an explicitly configured executable; blank or {@code null}
	 * means "find one"
	 * @return an executable redis-server
	 * @throws IllegalStateException if the configured path is not executable or no binary
	 * can be found
	 */
	public static Path resolve(@Nullable String configuredPath) {
		if (configuredPath != null && !configuredPath.isBlank()) {
			Path configured = Paths.get(configuredPath.trim()).toAbsolutePath();
			if (!Files.isRegularFile(configured) || !Files.isExecutable(configured)) {
				throw new IllegalStateException(
						"Configured redis-server '" + configured + "' does not exist or is not an executable file");
			}
			return configured;
		}
		Path onPath = findOnPath(System.getenv("PATH"));
		if (onPath != null) {
			return onPath;
		}
		try {
			return bundled();
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(
					"No redis-server on the PATH and no usable bundled one (" + ex.getMessage() + "). " + INSTALL_HINT,
					ex);
		}
	}

	/**
	 * The redis-server shipped in the embedded-redis jar for this OS and CPU, extracted
	 * once into {@code ${java.io.tmpdir}/pipelining-lab-redis/}.
	 * @throws IllegalStateException if none is shipped for this platform or it cannot be
	 * extracted
	 */
	public static Path bundled() {
		return bundled(cacheDir());
	}

	static Path bundled(Path cacheDir) {
		String resource = bundledResourceName(System.getProperty("os.name"), System.getProperty("os.arch"));
		if (resource == null) {
			throw new IllegalStateException("no bundled redis-server for " + System.getProperty("os.name") + "/"
					+ System.getProperty("os.arch"));
		}
		Path target = cacheDir.resolve(resource);
		if (Files.isRegularFile(target) && Files.isExecutable(target)) {
			return target;
		}
		try {
			return extract(resource, target);
		}
		catch (IOException ex) {
			throw new IllegalStateException("could not extract bundled " + resource + " to " + target + ": " + ex, ex);
		}
	}

	/**
	 * Runs {@code <binary> --version} and returns the version, e.g. {@code 7.0.15}.
	 */
	public static String version(Path binary) {
		String output;
		try {
			Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
			try (InputStream in = process.getInputStream()) {
				output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			}
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(binary + " --version did not finish within 10 s");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not run " + binary + " --version", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + binary + " --version", ex);
		}
		Matcher matcher = VERSION.matcher(output);
		if (!matcher.find()) {
			throw new IllegalStateException("Unexpected output of " + binary + " --version: " + output.strip());
		}
		return matcher.group(1);
	}

	static Path cacheDir() {
		return Paths.get(System.getProperty("java.io.tmpdir"), "pipelining-lab-redis");
	}

	static @Nullable Path findOnPath(@Nullable String path) {
		if (path == null) {
			return null;
		}
		String[] names = isWindows(System.getProperty("os.name")) ? new String[] { EXECUTABLE + ".exe", EXECUTABLE }
				: new String[] { EXECUTABLE };
		for (String dir : path.split(Pattern.quote(File.pathSeparator))) {
			if (dir.isBlank()) {
				continue;
			}
			for (String name : names) {
				Path candidate = Paths.get(dir, name);
				if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
					return candidate.toAbsolutePath();
				}
			}
		}
		return null;
	}

	/**
	 * Maps the JVM's os.name/os.arch to the resource names embedded-redis 1.4.3 ships.
	 */
	static @Nullable String bundledResourceName(String osName, String osArch) {
		String os = osName.toLowerCase(Locale.ROOT);
		String arch = osArch.toLowerCase(Locale.ROOT);
		boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
		boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
		boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i686");
		if (os.contains("linux")) {
			return x64 ? "redis-server-6.2.6-v5-linux-amd64"
					: arm64 ? "redis-server-6.2.7-linux-arm64" : x86 ? "redis-server-6.2.7-linux-386" : null;
		}
		if (os.contains("mac") || os.contains("darwin")) {
			return x64 ? "redis-server-6.2.6-v5-darwin-amd64" : arm64 ? "redis-server-6.2.6-v5-darwin-arm64" : null;
		}
		if (isWindows(os)) {
			return x64 ? "redis-server-5.0.14.1-windows-amd64.exe" : null;
		}
		return null;
	}

	private static boolean isWindows(String osName) {
		return osName.toLowerCase(Locale.ROOT).startsWith("windows");
	}

	private static Path extract(String resource, Path target) throws IOException {
		Files.createDirectories(target.getParent());
		// A temp file in the same directory plus an atomic move: a concurrent JVM or a
		// crash halfway never leaves a truncated binary under the final name.
		Path temp = Files.createTempFile(target.getParent(), resource, ".part");
		try {
			try (InputStream in = RedisServerBinary.class.getClassLoader().getResourceAsStream(resource)) {
				if (in == null) {
					throw new IOException(resource + " is not on the classpath (is the embedded-redis jar missing?)");
				}
				Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
			}
			if (!temp.toFile().setExecutable(true, false)) {
				throw new IOException("could not make " + temp + " executable");
			}
			try {
				Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
			}
			return target;
		}
		finally {
			Files.deleteIfExists(temp);
		}
	}

}
