package dev.pipelininglab.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.pipelininglab.redis.RouteCache;
import dev.pipelininglab.redis.Topology;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ReactiveRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext;
import org.springframework.stereotype.Component;

/**
 * Spring Data Redis's reactive template, as a WebFlux service would write it: a
 * {@code Flux} of the batch's commands subscribed all at once on the factory's shared
 * connection, so Lettuce and Netty pipeline without being asked. Byte keys and values, so
 * it writes exactly what the other variants write.
 */
@Component
class ReactiveRunner extends BatchRunner {

	/** Stands for a GET that found nothing: a Flux carries no nulls. */
	static final Object NIL = new Object();

	/** Per route's factory; a template holds no connection of its own. */
	private final Map<LettuceConnectionFactory, ReactiveRedisTemplate<byte[], byte[]>> templates = new ConcurrentHashMap<>();

	ReactiveRunner(RouteCache routes) {
		super(Mode.REACTIVE);
		routes.onClose(this.templates::remove);
	}

	@Override
	public @Nullable String unsupported(RunSpec spec, Topology topology) {
		return (spec.operation().command() instanceof Command.Reactive) ? null : spec.operation().lacks(mode());
	}

	@Override
	public void run(Pass pass, long from, long to, Tally tally) {
		LettuceConnectionFactory factory = pass.route().lettuce();
		ReactiveRedisTemplate<byte[], byte[]> template = this.templates.computeIfAbsent(factory,
				(each) -> new ReactiveRedisTemplate<>(each, RedisSerializationContext.byteArray()));
		int inFlight = (int) (to - from);
		Flux<Object> replies = Flux.range(0, inFlight)
			.<Object>flatMapSequential((offset) -> ((Command.Reactive) pass.command(from + offset)).reactive(template,
					pass, from + offset), inFlight, 1);
		Duration timeout = factory.getClientConfiguration().getCommandTimeout();
		List<Object> all = replies.collectList().block(timeout.plusSeconds(1));
		if (all == null) {
			throw new QueryTimeoutException("Redis did not answer " + inFlight + " commands within " + timeout);
		}
		pass.count(from, all.stream().map((reply) -> (reply == NIL) ? null : reply).toList(), tally);
	}

}
