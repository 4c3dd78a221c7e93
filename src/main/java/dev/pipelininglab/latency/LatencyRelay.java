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
 * A TCP relay on loopback that holds every chunk of bytes for a fixed delay in each
 * direction before passing it on, so a client connected through it pays a real round trip
 * per flush, as over a slow network. It delays bytes on the wire, never commands: a
 * pipeline flushed once pays one delay, a loop pays one per command.
 * <p>
 * Both sides of a connection share one event loop, whose scheduled tasks with equal
 * deadlines run in submission order, and deadlines only grow, so bytes leave in the order
 * they arrived.
 */
public final class LatencyRelay implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(LatencyRelay.class);

	private final EventLoopGroup group;

	private final Channel server;

	private LatencyRelay(EventLoopGroup group, Channel server) {
		this.group = group;
		this.server = server;
	}

	/**
	 * Starts a relay on a free loopback port that forwards to {@code target} with
	 * {@code oneWayDelay} each way.
	 */
	public static LatencyRelay start(InetSocketAddress target, Duration oneWayDelay) {
		EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
		long delayNanos = oneWayDelay.toNanos();
		try {
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
				.sync()
				.channel();
			log.info("Latency relay on {} -> {} holding bytes {} ms each way", server.localAddress(), target,
					oneWayDelay.toNanos() / 1e6);
			return new LatencyRelay(group, server);
		}
		catch (InterruptedException ex) {
			group.shutdownGracefully();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while starting the latency relay", ex);
		}
	}

	public int port() {
		return ((InetSocketAddress) this.server.localAddress()).getPort();
	}

	@Override
	public void close() {
		this.server.close();
		this.group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
	}

	/**
	 * Accepted client side: connects to the target on the same event loop, then relays
	 * with the delay.
	 */
	private static final class Frontend extends ChannelInboundHandlerAdapter {

		private final InetSocketAddress target;

		private final long delayNanos;

		private @Nullable Channel outbound;

		Frontend(InetSocketAddress target, long delayNanos) {
			this.target = target;
			this.delayNanos = delayNanos;
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
						this.outbound = connected.channel();
						inbound.config().setAutoRead(true);
					}
					else {
						inbound.close();
					}
				});
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			// Reads start (auto-read) only once the outbound channel is connected.
			Delaying.forwardLater(ctx, Objects.requireNonNull(this.outbound, "not connected yet"), msg,
					this.delayNanos);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			Delaying.closeLater(ctx, this.outbound, this.delayNanos);
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

	}

	/**
	 * Target side: sends what the target answers back to the client, with the same delay.
	 */
	private static final class Delaying extends ChannelInboundHandlerAdapter {

		private final Channel inbound;

		private final long delayNanos;

		Delaying(Channel inbound, long delayNanos) {
			this.inbound = inbound;
			this.delayNanos = delayNanos;
		}

		@Override
		public void channelRead(ChannelHandlerContext ctx, Object msg) {
			forwardLater(ctx, this.inbound, msg, this.delayNanos);
		}

		@Override
		public void channelInactive(ChannelHandlerContext ctx) {
			closeLater(ctx, this.inbound, this.delayNanos);
		}

		@Override
		public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
			ctx.close();
		}

		static void forwardLater(ChannelHandlerContext ctx, Channel to, Object msg, long delayNanos) {
			ctx.executor().schedule(() -> to.writeAndFlush(msg), delayNanos, TimeUnit.NANOSECONDS);
		}

		/** Closes after the bytes still in flight have been delivered. */
		static void closeLater(ChannelHandlerContext ctx, @Nullable Channel other, long delayNanos) {
			if (other != null) {
				ctx.executor()
					.schedule(() -> other.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE),
							delayNanos, TimeUnit.NANOSECONDS);
			}
		}

	}

}
