package dev.pipelininglab.localredis;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import redis.embedded.util.IO;

/** Finds a {@code redis-server}: configured, on the PATH, or bundled. */
public final class RedisServerBinary {

	private static final String EXECUTABLE = "redis-server";

	private static final Pattern VERSION = Pattern.compile("v=([0-9][0-9.]*)");

	private static final String INSTALL_HINT = "Install Redis (e.g. 'apt-get install redis-server' or "
			+ "'brew install redis') so that redis-server is on the PATH, or point lab.local-redis.binary at one.";

	private RedisServerBinary() {
	}

	public static Path resolve(@Nullable String configuredPath) {
		if (configuredPath != null && !configuredPath.isBlank()) {
			Path configured = Paths.get(configuredPath.trim()).toAbsolutePath();
			if (!Files.isRegularFile(configured) || !Files.isExecutable(configured)) {
				throw new IllegalStateException(
						"Configured redis-server '" + configured + "' does not exist or is not an executable file");
			}
			return configured;
		}
		try {
			// embedded-redis' PATH search, not its platform detection (uname, which a
			// bare PATH lacks); it looks for redis-server, not redis-server.exe.
			return IO.findBinaryInPath(EXECUTABLE).toAbsolutePath();
		}
		catch (FileNotFoundException notOnPath) {
			try {
				return bundled();
			}
			catch (IllegalStateException ex) {
				throw new IllegalStateException("No redis-server on the PATH and no usable bundled one ("
						+ ex.getMessage() + "). " + INSTALL_HINT, ex);
			}
		}
	}

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
		if (os.startsWith("windows")) {
			return x64 ? "redis-server-5.0.14.1-windows-amd64.exe" : null;
		}
		return null;
	}

	private static Path extract(String resource, Path target) throws IOException {
		Files.createDirectories(target.getParent());
		// Temp file and atomic move: a concurrent JVM or a crash never leaves a truncated
		// binary.
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
			// Beside its target, so on the same file store: the move is always atomic.
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			return target;
		}
		finally {
			Files.deleteIfExists(temp);
		}
	}

}
