package dev.pipelininglab;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * application.yml sets only what differs from a default: a lab setting repeated there
 * would silently win over a default changed in its record. The defaults are the ones the
 * configuration processor read from the records' {@code @DefaultValue}s.
 */
class ApplicationYamlTests {

	@Test
	void applicationYmlRepeatsNoDefaultOfTheLabsOwnSettings() throws IOException {
		Map<String, String> defaults = new TreeMap<>();
		try (InputStream metadata = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			List<Map<String, Object>> properties = JsonPath.read(metadata, "$.properties[*]");
			properties.stream()
				.filter((property) -> property.get("defaultValue") != null)
				.forEach((property) -> defaults.put((String) property.get("name"),
						String.valueOf(property.get("defaultValue"))));
		}
		assertThat(defaults).as("the records' defaults, as the configuration processor saw them")
			.containsEntry("lab.pipeline.flush-policy", "buffered-500")
			.containsEntry("lab.admission.max-concurrent", "8");
		List<String> repeated = new ArrayList<>();
		for (PropertySource<?> source : new YamlPropertySourceLoader().load("application.yml",
				new ClassPathResource("application.yml"))) {
			EnumerablePropertySource<?> yaml = (EnumerablePropertySource<?>) source;
			for (String name : yaml.getPropertyNames()) {
				String value = String.valueOf(yaml.getProperty(name));
				if (value.equals(defaults.get(name))) {
					repeated.add(name + "=" + value);
				}
			}
		}
		assertThat(repeated).as("lab settings application.yml sets to their defaults").isEmpty();
	}

}
