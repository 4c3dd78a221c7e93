package dev.pipelininglab.redis;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Optional;
import java.util.function.Function;

import io.lettuce.core.internal.HostAndPort;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.MappingSocketAddressResolver;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;

/**
 * The app's Lettuce client configuration (timeouts, TLS, client options, read-from,
 * pooling: whatever Spring Boot built) with one change: client resources whose address
 * resolver maps every Redis address the client connects to, configured or announced by a
 * server, to another one. The RTT lab uses it to put a latency relay in front of each
 * node.
 */
final class RelayedClientConfiguration {

	private RelayedClientConfiguration() {
	}

	static LettuceClientConfiguration of(LettuceClientConfiguration configuration,
			Function<HostAndPort, HostAndPort> mapping) {
		ClientResources shared = configuration.getClientResources()
			.orElseThrow(() -> new IllegalStateException("Spring Boot always gives Lettuce client resources"));
		// A copy with the app's event loops, task threads and timer handed in again,
		// which marks them shared: the copy's own shutdown (when its route closes) leaves
		// them running. A plain mutate() keeps the original's ownership, so shutting the
		// copy down stopped the app's event loops, and leaving it un-shut made Lettuce
		// warn for every route once the copy was collected.
		ClientResources mapped = shared.mutate()
			.eventLoopGroupProvider(shared.eventLoopGroupProvider())
			.eventExecutorGroup(shared.eventExecutorGroup())
			.timer(shared.timer())
			.socketAddressResolver(MappingSocketAddressResolver.create(mapping))
			.build();
		Optional<ClientResources> resources = Optional.of(mapped);
		// Spring Data Redis pools when the configuration is a pooling one, so the copy
		// keeps the interfaces of the original and answers everything else as it does.
		Class<?> type = (configuration instanceof LettucePoolingClientConfiguration)
				? LettucePoolingClientConfiguration.class : LettuceClientConfiguration.class;
		return (LettuceClientConfiguration) Proxy.newProxyInstance(RelayedClientConfiguration.class.getClassLoader(),
				new Class<?>[] { type }, (proxy, method, args) -> {
					if (method.getName().equals("getClientResources")) {
						return resources;
					}
					try {
						return method.invoke(configuration, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getCause();
					}
				});
	}

}
