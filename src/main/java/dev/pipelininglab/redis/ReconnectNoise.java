package dev.pipelininglab.redis;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.helpers.MessageFormatter;

import org.springframework.core.NestedExceptionUtils;

/**
 * Turns Lettuce's reconnect chatter into one WARN per node and outage; installed by
 * {@code logback-spring.xml} (and the tests' {@code logback-test.xml}), as
 * {@code logging.level} can silence those loggers but not say when an outage starts and
 * ends.
 */
public class ReconnectNoise extends TurboFilter {

	private static final org.slf4j.Logger log = LoggerFactory.getLogger(ReconnectNoise.class);

	private static final Set<String> RECONNECTING = Set.of("io.lettuce.core.protocol.ConnectionWatchdog",
			"io.lettuce.core.cluster.topology.DefaultClusterTopologyRefresh");

	private static final String RECONNECTED = "io.lettuce.core.protocol.ReconnectionHandler";

	private static final Pattern ADDRESS = Pattern
		.compile("(\\d{1,3}(?:\\.\\d{1,3}){3}|\\[[0-9a-fA-F:]+\\]|[A-Za-z][\\w.-]*)(?:/[^:\\s\\]]*)?:(\\d{2,5})");

	private final Set<String> down = ConcurrentHashMap.newKeySet();

	@Override
	public FilterReply decide(@Nullable Marker marker, Logger logger, Level level, @Nullable String format,
			@Nullable Object[] params, @Nullable Throwable failure) {
		if (format == null || logger.getName().equals(ReconnectNoise.class.getName())) {
			return FilterReply.NEUTRAL;
		}
		boolean reconnecting = RECONNECTING.contains(logger.getName());
		if (!reconnecting && !logger.getName().equals(RECONNECTED)) {
			return FilterReply.NEUTRAL;
		}
		String message = MessageFormatter.arrayFormat(format, params).getMessage();
		String node = node(message);
		if (node == null) {
			return FilterReply.NEUTRAL;
		}
		if (!reconnecting) {
			return (this.down.remove(node) || !message.startsWith("Reconnected")) ? FilterReply.NEUTRAL
					: FilterReply.DENY;
		}
		if (level.isGreaterOrEqual(Level.WARN) && this.down.add(node)) {
			log.warn("Redis node {} does not answer ({}); reconnecting quietly until it does", node,
					cause(message, failure));
		}
		return FilterReply.DENY;
	}

	static @Nullable String node(String message) {
		Matcher address = ADDRESS.matcher(message);
		return address.find() ? address.group(1) + ":" + address.group(2) : null;
	}

	private static String cause(String message, @Nullable Throwable failure) {
		Throwable root = (failure != null) ? NestedExceptionUtils.getMostSpecificCause(failure) : null;
		if (root != null && root.getMessage() != null) {
			return root.getMessage();
		}
		int colon = message.lastIndexOf("]: ");
		return (colon >= 0) ? message.substring(colon + 3) : message;
	}

}
