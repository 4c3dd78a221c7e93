package dev.pipelininglab.latency;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loopback TCP relay that holds bytes for a fixed delay each way: one delay per flush;
 * both sides share one event loop, so bytes leave in the order they arrived.
 */
public final class LatencyRelay implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(LatencyRelay.class);

	private final EventLoopGroup group;

	private final Channel server;

	private LatencyRelay(EventLoopGroup group, Channel server) {
		this.group = group;
		this.server = server;
	}

	public static LatencyRelay start(InetSocketAddress target, Duration oneWayDelay) {
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
		long delayNanos = oneWayDelay.toNanos();
		Channel server = new ServerBootstrap().group(group)
			.channel(NioServerSocketChannel.class)
			.childOption(ChannelOption.AUTO_READ, false)
			.childOption(ChannelOption.TCP_NODELAY, true)
			.childHandler(new ChannelInitializer<SocketChannel>() {

				@Override
				protected void initChannel(SocketChannel inbound) {
					inbound.pipeline().addLast(new Frontend(target, delayNanos));
				}

			})
			.bind(new InetSocketAddress("127.0.0.1", 0))
			.syncUninterruptibly()
			.channel();
		log.info("Latency relay on {} -> {} holding bytes {} ms each way", server.localAddress(), target,
				oneWayDelay.toNanos() / 1e6);
		return new LatencyRelay(group, server);
	}

	public int port() {
		return ((InetSocketAddress) this.server.localAddress()).getPort();
	}

	@Override
	public void close() {
		this.server.close();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	// Accepted client side: reads start only once its target is connected.
	private static final class Frontend extends Delaying {

		private final InetSocketAddress target;

		Frontend(InetSocketAddress target, long delayNanos) {
			super(null, delayNanos);
			this.target = target;
		}

		@Override
		public void channelActive(ChannelHandlerContext ctx) {
			Channel inbound = ctx.channel();
			new Bootstrap().group(inbound.eventLoop())
				.channel(NioSocketChannel.class)
				.option(ChannelOption.TCP_NODELAY, true)
				.handler(new Delaying(inbound, this.delayNanos))
				.connect(this.target)
				.addListener((ChannelFutureListener) (connected) -> {
					if (connected.isSuccess()) {
						this.other = connected.channel();
						inbound.config().setAutoRead(true);
					}
					else {
						inbound.close();
					}
				});
		}

	}

	private static class Delaying extends ChannelInboundHandlerAdapter {

		final long delayNanos;

		@Nullable Channel other;

		Delaying(@Nullable Channel other, long delayNanos) {
			this.other = other;
			this.delayNanos = delayNanos;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			Channel to = Objects.requireNonNull(this.other, "not connected yet");
			ctx.executor().schedule(() -> to.writeAndFlush(msg), this.delayNanos, TimeUnit.NANOSECONDS);
		}

		// After the bytes still in flight have been delivered.
		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			Channel to = this.other;
			if (to != null) {
				ctx.executor()
					.schedule(() -> to.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE),
							this.delayNanos, TimeUnit.NANOSECONDS);
			}
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

}
