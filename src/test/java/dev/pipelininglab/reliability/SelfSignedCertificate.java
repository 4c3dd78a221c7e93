package dev.pipelininglab.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away self-signed certificate for 127.0.0.1, made with the JDK's own
 * {@code keytool} (no OpenSSL, no extra library) and written as the PEM files
 * redis-server and Spring Boot's SSL bundles read. Being self-signed, it is its own CA:
 * clients trust exactly this certificate.
 */
record SelfSignedCertificate(Path certificate, Path privateKey) {

	private static final char[] STORE_PASSWORD = "changeit".toCharArray();

	static SelfSignedCertificate create(Path dir) throws IOException, GeneralSecurityException, InterruptedException {
		Path store = dir.resolve("redis.p12");
		Path keytool = Paths.get(System.getProperty("java.home"), "bin", "keytool");
		Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "redis", "-keyalg", "EC",
				"-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
				"-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass",
				new String(STORE_PASSWORD), "-keypass", new String(STORE_PASSWORD))
			.redirectErrorStream(true)
			.start();
		String output;
		try (InputStream in = process.getInputStream()) {
			output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IOException("keytool failed: " + output);
		}
		KeyStore keyStore = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keyStore.load(in, STORE_PASSWORD);
		}
		Certificate certificate = keyStore.getCertificate("redis");
		Key key = keyStore.getKey("redis", STORE_PASSWORD);
		Path certificateFile = dir.resolve("redis.crt");
		Path keyFile = dir.resolve("redis.key");
		Files.writeString(certificateFile, pem("CERTIFICATE", certificate.getEncoded()));
		// PKCS#8, which OpenSSL (in redis-server) and Spring Boot's PEM reader both
		// accept.
		Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
		return new SelfSignedCertificate(certificateFile, keyFile);
	}

	private static String pem(String type, byte[] der) {
		String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
		return String.join("\n", List.of("-----BEGIN " + type + "-----", body, "-----END " + type + "-----", ""));
	}

}
