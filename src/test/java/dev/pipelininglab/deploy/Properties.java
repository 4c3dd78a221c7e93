package dev.pipelininglab.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The properties the app has: every name in the configuration metadata on the class path
 * (Spring Boot's modules and the lab's own, which the configuration processor writes), in
 * the form an environment variable binds to.
 */
final class Properties {

	private static Set<String> known;

	private Properties() {
	}

	/**
	 * Spring Boot's rule for the canonical form: lower case, underscores for dots; dashes
	 * are dropped from the property (SERVER_ADDRESS is server.address,
	 * LAB_SECURITY_ALLOWEDHOSTS is lab.security.allowed-hosts).
	 */
	static String fromEnvironmentVariable(String variable) {
		return variable.toLowerCase(Locale.ROOT).replace('_', '.');
	}

	/** Every property name with its dashes dropped, as environment variables see them. */
	static synchronized Set<String> known() throws IOException {
		if (known == null) {
			Set<String> names = new TreeSet<>();
			JsonMapper json = JsonMapper.builder().build();
			for (URL url : Collections
				.list(Properties.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
				try (InputStream in = url.openStream()) {
					for (JsonNode property : json.readTree(in).path("properties")) {
						names.add(property.path("name").asString().replace("-", ""));
					}
				}
			}
			known = Set.copyOf(names);
		}
		return known;
	}

}
