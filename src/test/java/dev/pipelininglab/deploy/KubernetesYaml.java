package dev.pipelininglab.deploy;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import org.yaml.snakeyaml.Yaml;

/**
 * Kubernetes manifests read into fabric8's model of the Kubernetes API types, strictly:
 * the model keeps a field it does not know in an {@code additionalProperties} map instead
 * of failing (as {@code kubectl apply} would, or silently drop it), so every such map in
 * the parsed object must be empty; and a number or boolean where the API wants a string
 * (a ConfigMap's {@code data}, an env value) is refused, as the API server refuses it.
 */
final class KubernetesYaml {

	private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("Deployment", Deployment.class,
			"Service", Service.class, "ConfigMap", ConfigMap.class, "Secret", Secret.class, "NetworkPolicy",
			NetworkPolicy.class);

	private static final ObjectMapper MAPPER = new ObjectMapper()
		.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

	static {
		MAPPER.coercionConfigFor(LogicalType.Textual)
			.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
			.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
			.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
	}

	private KubernetesYaml() {
	}

	/** Every YAML document of a file, as plain maps. */
	@SuppressWarnings("unchecked")
	static List<Map<String, Object>> documents(Path file) throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(file)) {
			for (Object document : new Yaml().loadAll(reader)) {
				if (document != null) {
					documents.add((Map<String, Object>) document);
				}
			}
		}
		return documents;
	}

	static List<HasMetadata> parseAll(Path file) throws IOException {
		List<HasMetadata> parsed = new ArrayList<>();
		for (Map<String, Object> document : documents(file)) {
			parsed.add(parse(document, file.toString()));
		}
		return parsed;
	}

	/**
	 * One manifest as its API type.
	 * @throws AssertionError for a kind this project does not ship, an unknown field, or
	 * a value of the wrong type
	 */
	static HasMetadata parse(Map<String, Object> document, String source) {
		String kind = String.valueOf(document.get("kind"));
		Class<? extends HasMetadata> type = KINDS.get(kind);
		if (type == null) {
			throw new AssertionError(source + ": kind " + kind + " is none of " + KINDS.keySet());
		}
		HasMetadata parsed;
		try {
			parsed = MAPPER.convertValue(document, type);
		}
		catch (IllegalArgumentException ex) {
			throw new AssertionError(source + ": not a valid " + kind + ": " + ex.getMessage(), ex);
		}
		List<String> unknown = new ArrayList<>();
		collectUnknownFields(parsed, kind, unknown, 0);
		if (!unknown.isEmpty()) {
			throw new AssertionError(source + ": fields the Kubernetes API does not have: " + unknown);
		}
		return parsed;
	}

	private static void collectUnknownFields(Object node, String path, List<String> unknown, int depth) {
		if (depth > 40) {
			throw new AssertionError("too deep at " + path);
		}
		if (node instanceof Collection<?> items) {
			int index = 0;
			for (Object item : items) {
				collectUnknownFields(item, path + "[" + index++ + "]", unknown, depth + 1);
			}
			return;
		}
		if (node instanceof Map<?, ?> map) {
			map.forEach((key, value) -> collectUnknownFields(value, path + "." + key, unknown, depth + 1));
			return;
		}
		if (node == null || !node.getClass().getName().startsWith("io.fabric8.")) {
			return;
		}
		for (Method getter : node.getClass().getMethods()) {
			if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
					|| getter.getDeclaringClass() == Object.class
					|| !(getter.getName().startsWith("get") || getter.getName().startsWith("is"))) {
				continue;
			}
			Object value;
			try {
				value = getter.invoke(node);
			}
			catch (IllegalAccessException | InvocationTargetException ex) {
				continue;
			}
			if (getter.getName().equals("getAdditionalProperties")) {
				if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
					unknown.add(path + ": " + extra.keySet());
				}
				continue;
			}
			collectUnknownFields(value, path + "." + getter.getName(), unknown, depth + 1);
		}
	}

}
