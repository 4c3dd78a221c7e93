package dev.pipelininglab.deploy;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An image tarball in the format {@code jib:buildTar} writes and {@code docker load}
 * reads: {@code manifest.json} naming the config and the layers, each a gzipped tar. Read
 * here without Docker: the image's config, a file of its layers, or its {@code /app}
 * directory laid out in a folder.
 */
final class ImageTarball {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Path tar;

	ImageTarball(Path tar) {
		this.tar = tar;
	}

	/**
	 * What {@code docker inspect} shows as Config: Entrypoint, User, Env, ExposedPorts...
	 */
	JsonNode config() throws IOException {
		String configFile = manifest().path("Config").asString();
		return JSON.readTree(entry(configFile)).path("config");
	}

	/** The image's environment as a map (its {@code Env} lines). */
	Map<String, String> environment() throws IOException {
		Map<String, String> environment = new LinkedHashMap<>();
		for (JsonNode line : config().path("Env")) {
			String[] pair = line.asString().split("=", 2);
			environment.put(pair[0], pair[1]);
		}
		return environment;
	}

	/**
	 * Every file of the layers under {@code prefix} (such as {@code app/}), extracted
	 * below root.
	 */
	void extract(String prefix, Path root) throws IOException {
		for (String layer : layers()) {
			try (TarArchiveInputStream files = new TarArchiveInputStream(
					new GZIPInputStream(new BufferedInputStream(new java.io.ByteArrayInputStream(entry(layer)))))) {
				TarArchiveEntry file;
				while ((file = files.getNextEntry()) != null) {
					String name = file.getName().replaceFirst("^\\./", "").replaceFirst("^/", "");
					if (!name.startsWith(prefix) || name.contains("..")) {
						continue;
					}
					Path target = root.resolve(name);
					if (file.isDirectory()) {
						Files.createDirectories(target);
					}
					else if (file.isFile()) {
						Files.createDirectories(target.getParent());
						Files.copy(files, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
					}
				}
			}
		}
	}

	/** The text of one file in the image's layers, or null if none has it. */
	String fileText(String path) throws IOException {
		String found = null;
		for (String layer : layers()) {
			try (TarArchiveInputStream files = new TarArchiveInputStream(
					new GZIPInputStream(new java.io.ByteArrayInputStream(entry(layer))))) {
				TarArchiveEntry file;
				while ((file = files.getNextEntry()) != null) {
					if (file.getName().replaceFirst("^\\./", "").replaceFirst("^/", "").equals(path)) {
						found = new String(files.readAllBytes(), StandardCharsets.UTF_8);
					}
				}
			}
		}
		return found;
	}

	private List<String> layers() throws IOException {
		List<String> layers = new ArrayList<>();
		manifest().path("Layers").forEach((layer) -> layers.add(layer.asString()));
		return layers;
	}

	private JsonNode manifest() throws IOException {
		return JSON.readTree(entry("manifest.json")).get(0);
	}

	private byte[] entry(String name) throws IOException {
		try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(this.tar))) {
			TarArchiveEntry entry;
			while ((entry = in.getNextEntry()) != null) {
				if (entry.getName().equals(name)) {
					return in.readAllBytes();
				}
			}
		}
		throw new IOException(name + " not in " + this.tar);
	}

	/**
	 * A base image Jib can build on offline ({@code tar://}): one layer with an
	 * {@code /etc/passwd} that has the user the real base (Temurin on Ubuntu) has, and
	 * the real base's PATH. It has no Java: the app from the image runs on this JVM.
	 */
	static Path writeStandInBase(Path file) throws IOException {
		byte[] passwd = "root:x:0:0:root:/root:/bin/bash\nubuntu:x:1000:1000:Ubuntu:/home/ubuntu:/bin/bash\n"
			.getBytes(StandardCharsets.UTF_8);
		java.io.ByteArrayOutputStream layer = new java.io.ByteArrayOutputStream();
		try (TarArchiveOutputStream out = new TarArchiveOutputStream(layer)) {
			add(out, "etc/passwd", passwd);
		}
		byte[] layerBytes = layer.toByteArray();
		String diffId = "sha256:" + sha256(layerBytes);
		byte[] config = ("{\"architecture\":\"amd64\",\"os\":\"linux\",\"config\":{\"Env\":["
				+ "\"PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\"]},"
				+ "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"" + diffId + "\"]}}")
			.getBytes(StandardCharsets.UTF_8);
		byte[] manifest = "[{\"Config\":\"config.json\",\"RepoTags\":[\"stand-in:latest\"],\"Layers\":[\"layer.tar\"]}]"
			.getBytes(StandardCharsets.UTF_8);
		try (OutputStream file1 = Files.newOutputStream(file);
				TarArchiveOutputStream out = new TarArchiveOutputStream(file1)) {
			add(out, "manifest.json", manifest);
			add(out, "config.json", config);
			add(out, "layer.tar", layerBytes);
		}
		return file;
	}

	private static void add(TarArchiveOutputStream out, String name, byte[] content) throws IOException {
		TarArchiveEntry entry = new TarArchiveEntry(name);
		entry.setSize(content.length);
		out.putArchiveEntry(entry);
		out.write(content);
		out.closeArchiveEntry();
	}

	private static String sha256(byte[] bytes) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
