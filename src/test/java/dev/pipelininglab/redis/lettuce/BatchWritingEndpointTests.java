package dev.pipelininglab.redis.lettuce;

import java.util.List;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisException;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ConnectionFacade;
import io.lettuce.core.protocol.MaintenanceAwareConnectionWatchdog;
import io.lettuce.core.protocol.RebindState;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the endpoint hands to the channel, seen on an in-memory Netty channel: the Redis
 * side of the same code is exercised by every pipelined test, as each run's route uses
 * this endpoint.
 */
class BatchWritingEndpointTests {

	static ClientResources resources;

	EmbeddedChannel channel;

	BatchWritingEndpoint endpoint;

	@BeforeAll
	static void resources() {
		resources = DefaultClientResources.create();
	}

	@AfterAll
	static void release() {
		resources.shutdown();
	}

	@BeforeEach
	void connect() {
		connect(ClientOptions.create());
	}

	private void connect(ClientOptions options) {
		if (this.channel != null) {
			this.channel.finishAndReleaseAll();
		}
		this.channel = new EmbeddedChannel();
		this.endpoint = new BatchWritingEndpoint(options, resources);
		this.endpoint.setConnectionFacade(new ConnectionFacade() {

			@Override
			public void activated() {
			}

			@Override
			public void deactivated() {
			}

		});
		this.endpoint.notifyChannelActive(this.channel);
	}

	@AfterEach
	void disconnect() {
		this.channel.finishAndReleaseAll();
	}

	@Test
	void buffersUntilFlushedThenWritesEveryCommandAsOneMessageInOrder() {
		this.endpoint.setAutoFlushCommands(false);
		List<AsyncCommand<String, String, String>> commands = List.of(set("a"), set("b"), set("c"));
		commands.forEach(this.endpoint::write);
		assertThat((Object) this.channel.readOutbound()).isNull();

		this.endpoint.flushCommands();

		List<Object> message = this.channel.readOutbound();
		assertThat(message).containsExactlyElementsOf(commands);
		assertThat((Object) this.channel.readOutbound()).isNull();
	}

	@Test
	void eachFlushIsItsOwnMessage() {
		this.endpoint.setAutoFlushCommands(false);
		AsyncCommand<String, String, String> first = set("a");
		this.endpoint.write(first);
		this.endpoint.flushCommands();
		AsyncCommand<String, String, String> second = set("b");
		this.endpoint.write(second);
		this.endpoint.flushCommands();
		this.endpoint.flushCommands();

		assertThat((List<Object>) this.channel.readOutbound()).containsExactly(first);
		assertThat((List<Object>) this.channel.readOutbound()).containsExactly(second);
		assertThat((Object) this.channel.readOutbound()).isNull();
	}

	@Test
	void withAutoFlushOnCommandsGoOutOneByOneAsLettuceWritesThem() {
		AsyncCommand<String, String, String> command = set("a");
		this.endpoint.write(command);

		assertThat((Object) this.channel.readOutbound()).isSameAs(command);
	}

	@Test
	void closingCancelsCommandsStillWaitingForAFlush() {
		this.endpoint.setAutoFlushCommands(false);
		AsyncCommand<String, String, String> command = set("a");
		this.endpoint.write(command);

		this.endpoint.close();

		assertThat(command.isCancelled()).isTrue();
		assertThat((Object) this.channel.readOutbound()).isNull();
	}

	@Test
	void aFailedWriteFailsEveryCommandOfTheFlush() {
		this.endpoint.setAutoFlushCommands(false);
		List<AsyncCommand<String, String, String>> commands = List.of(set("a"), set("b"));
		commands.forEach(this.endpoint::write);
		this.channel.pipeline().addFirst(new io.netty.channel.ChannelOutboundHandlerAdapter() {

			@Override
			public void write(io.netty.channel.ChannelHandlerContext ctx, Object msg,
					io.netty.channel.ChannelPromise promise) {
				promise.setFailure(new RedisException("socket gone"));
			}

		});

		this.endpoint.flushCommands();

		assertThat(commands).allSatisfy((command) -> assertThat(command).isCompletedExceptionally());
	}

	@Test
	void withABoundedRequestQueueItWritesAsLettuceDoes() {
		connect(ClientOptions.builder().requestQueueSize(100).build());
		this.endpoint.setAutoFlushCommands(false);
		AsyncCommand<String, String, String> first = set("a");
		AsyncCommand<String, String, String> second = set("b");
		this.endpoint.write(first);
		this.endpoint.write(second);
		this.endpoint.flushCommands();

		assertThat((Object) this.channel.readOutbound()).isSameAs(first);
		assertThat((Object) this.channel.readOutbound()).isSameAs(second);
	}

	@Test
	void whileAMaintenanceRebindMovesTheConnectionNothingIsWritten() {
		this.endpoint.setAutoFlushCommands(false);
		AsyncCommand<String, String, String> command = set("a");
		this.endpoint.write(command);
		this.channel.attr(MaintenanceAwareConnectionWatchdog.REBIND_ATTRIBUTE).set(RebindState.STARTED);

		this.endpoint.flushCommands();

		assertThat((Object) this.channel.readOutbound()).isNull();
		this.endpoint.close();
		assertThat(command.isCancelled()).isTrue();
	}

	@Test
	void closingLeavesCommandsThatAlreadyCompletedAlone() {
		this.endpoint.setAutoFlushCommands(false);
		AsyncCommand<String, String, String> command = set("a");
		this.endpoint.write(command);
		command.complete("OK");

		this.endpoint.close();

		assertThat(command.isCancelled()).isFalse();
		assertThat(command.join()).isEqualTo("OK");
	}

	private static AsyncCommand<String, String, String> set(String key) {
		CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8).addKey(key).addValue("v");
		return new AsyncCommand<>(new Command<>(CommandType.SET, new StatusOutput<>(StringCodec.UTF8), args));
	}

}
