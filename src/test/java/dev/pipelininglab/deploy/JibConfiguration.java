package dev.pipelininglab.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The jib-maven-plugin's configuration as pom.xml states it: what the image sets, read
 * from the source the image is built from, so the tests check and use exactly that.
 */
record JibConfiguration(String baseImage, String mainClass, String user, int port, Map<String, String> environment,
		List<String> jvmFlags, Map<String, String> labels, boolean boundToLifecycle) {

	private static final Pattern MAX_RAM = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)");

	static JibConfiguration read() {
		try {
			DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
			factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
			Document pom = factory.newDocumentBuilder().parse(Path.of("pom.xml").toFile());
			Element project = pom.getDocumentElement();
			Map<String, String> properties = children(child(project, "properties"));
			Element plugin = jibPlugin(project);
			Element configuration = child(plugin, "configuration");
			Element container = child(configuration, "container");
			List<String> jvmFlags = new ArrayList<>();
			NodeList flags = child(container, "jvmFlags").getElementsByTagName("jvmFlag");
			for (int i = 0; i < flags.getLength(); i++) {
				jvmFlags.add(flags.item(i).getTextContent().trim());
			}
			String baseImage = text(child(child(configuration, "from"), "image"));
			Matcher property = Pattern.compile("\\$\\{(.+)}").matcher(baseImage);
			if (property.matches()) {
				baseImage = properties.get(property.group(1));
			}
			return new JibConfiguration(baseImage, text(child(container, "mainClass")), text(child(container, "user")),
					Integer.parseInt(text(child(child(container, "ports"), "port"))),
					children(child(container, "environment")), jvmFlags, children(child(container, "labels")),
					plugin.getElementsByTagName("executions").getLength() > 0);
		}
		catch (Exception ex) {
			throw new IllegalStateException("pom.xml's jib-maven-plugin configuration", ex);
		}
	}

	/** The percentage of the container's memory the heap may take. */
	double maxRamPercentage() {
		return this.jvmFlags.stream()
			.map(MAX_RAM::matcher)
			.filter(Matcher::matches)
			.mapToDouble((matcher) -> Double.parseDouble(matcher.group(1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no -XX:MaxRAMPercentage in " + this.jvmFlags));
	}

	private static Element jibPlugin(Element project) {
		NodeList plugins = child(child(project, "build"), "plugins").getElementsByTagName("plugin");
		for (int i = 0; i < plugins.getLength(); i++) {
			Element plugin = (Element) plugins.item(i);
			if ("jib-maven-plugin".equals(text(child(plugin, "artifactId")))) {
				return plugin;
			}
		}
		throw new AssertionError("no jib-maven-plugin in pom.xml's build plugins");
	}

	private static Element child(Element parent, String name) {
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				return element;
			}
		}
		throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
	}

	private static Map<String, String> children(Element parent) {
		Map<String, String> values = new LinkedHashMap<>();
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element) {
				values.put(element.getTagName(), text(element));
			}
		}
		return values;
	}

	private static String text(Element element) {
		return element.getTextContent().trim();
	}

}
