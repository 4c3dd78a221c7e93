package dev.pipelininglab.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * The connections a run really used, from {@code CLIENT LIST}: {@code idle} counts whole
 * seconds, so a pass may start in a new server second.
 */
@Component
public class ServerConnections implements DisposableBean {

	public static final String COUNTED_BY = "CLIENT LIST on every master after the pass: connections named for the"
			+ " run's route whose last command is one the run sends and came in during the pass (whole server"
			+ " seconds; the pass starts in a new second only when the route holds more such connections than its"
			+ " clients need)";

	private static final Logger log = LoggerFactory.getLogger(ServerConnections.class);

	private static final Pattern FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");

	private static final Pattern RECEIVED = Pattern.compile("(?m)^total_connections_received:(\\d+)");

	private final NodeConnections.Own connection;

	ServerConnections(LettuceConnectionFactory factory) {
		this.connection = new NodeConnections.Own(factory);
	}

	public synchronized @Nullable Snapshot snapshot() {
		try {
			long received = 0;
			List<Client> clients = new ArrayList<>();
			List<RedisCommands<String, String>> masters = new ArrayList<>();
			this.connection.forEachMaster((master, node) -> masters.add(master));
			List<String> time = masters.get(0).time();
			long micros = Long.parseLong(time.get(0)) * 1_000_000L + Long.parseLong(time.get(1));
			for (RedisCommands<String, String> master : masters) {
				Matcher matcher = RECEIVED.matcher(master.info("stats"));
				if (matcher.find()) {
					received += Long.parseLong(matcher.group(1));
				}
				for (String line : master.clientList().split("\n")) {
					if (!line.isBlank()) {
						clients.add(Client.parse(line));
					}
				}
			}
			return new Snapshot(received, List.copyOf(clients), micros, masters.size());
		}
		catch (RuntimeException ex) {
			log.debug("Could not read the masters' client lists", ex);
			return null;
		}
	}

	public static @Nullable Usage usage(@Nullable Snapshot before, @Nullable Snapshot after, Route route,
			Set<String> commands) {
		if (before == null || after == null) {
			return null;
		}
		long idleBound = after.serverMicros() / 1_000_000L - before.serverMicros() / 1_000_000L;
		int used = (int) candidates(after, route, commands).filter((client) -> client.idleSeconds() <= idleBound)
			.count();
		return new Usage(used, after.connectionsReceived() - before.connectionsReceived());
	}

	public @Nullable Snapshot beforePass(Route route, Set<String> commands, int clients) {
		Snapshot before = snapshot();
		if (before == null || candidates(before, route, commands).count() <= (long) clients * perClient(before)) {
			return before;
		}
		long micros = before.serverMicros() % 1_000_000L;
		log.debug(
				"Waiting into the server's next second: a master holds more connections of route {} than the"
						+ " run's {} clients: {}",
				route.clientName(), clients, candidates(before, route, commands).toList());
		try {
			Thread.sleep((1_000_000L - micros) / 1000 + 5);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return before;
		}
		return snapshot();
	}

	// A cluster client holds one connection per master plus the default one, which is not
	// a grown pool.
	private static int perClient(Snapshot snapshot) {
		return (snapshot.masters() > 1) ? snapshot.masters() + 1 : 1;
	}

	private static Stream<Client> candidates(Snapshot snapshot, Route route, Set<String> commands) {
		String name = (route.clientName() != null) ? route.clientName() : "";
		return snapshot.clients()
			.stream()
			.filter((client) -> client.name().equals(name) && commands.contains(client.cmd()));
	}

	@Override
	public void destroy() {
		this.connection.close();
	}

	public record Snapshot(long connectionsReceived, List<Client> clients, long serverMicros, int masters) {
	}

	record Client(String name, String cmd, long idleSeconds) {

		static Client parse(String line) {
			String name = "";
			String cmd = "";
			long idle = Long.MAX_VALUE;
			Matcher field = FIELD.matcher(line);
			while (field.find()) {
				switch (field.group(1)) {
					case "name" -> name = field.group(2);
					case "cmd" -> cmd = field.group(2);
					case "idle" -> idle = Long.parseLong(field.group(2));
					default -> {
					}
				}
			}
			return new Client(name, cmd, idle);
		}

	}

	public record Usage(int used, long opened) {
	}

}
