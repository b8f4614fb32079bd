package io.jrnic.soft;

import static io.jrnic.soft.HandOverFixture.writeAndSend;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.HandOverFixture.Target;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CmEventType;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.HandOverFailedException;
import io.jrnic.verbs.HandOverOptions;
import io.jrnic.verbs.HandOverVerdict;
import io.jrnic.verbs.RtrType;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.string.StringDecoder;
import io.netty.handler.codec.string.StringEncoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stream hand-over of Netty channels: the application's line protocol (a LineBasedFrameDecoder, string
 * codecs, its handler) says hello, agrees on RDMA, and each side hands its channel over from its handler.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyHandOverTest {

    /** A line decoder that records how many bytes stayed in its cumulation behind the line {@code watch}. */
    static final class RecordingLineDecoder extends LineBasedFrameDecoder {
        final AtomicInteger leftBehindWatched = new AtomicInteger(-1);
        private final String watch;

        RecordingLineDecoder(String watch) {
            super(1024);
            this.watch = watch;
        }

        @Override
        protected Object decode(ChannelHandlerContext ctx, ByteBuf buffer) throws Exception {
            Object frame = super.decode(ctx, buffer);
            if (frame instanceof ByteBuf f && f.toString(StandardCharsets.US_ASCII).equals(watch)) {
                leftBehindWatched.set(buffer.readableBytes());
            }
            return frame;
        }
    }

    /** An application channel: decoder, string codecs, and {@code onLine(ctx, line)}. */
    private static ChannelInitializer<SocketChannel> app(RecordingLineDecoder dec,
                                                          BiConsumer<ChannelHandlerContext, String> onLine) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast("lines", dec).addLast("strIn", new StringDecoder(StandardCharsets.US_ASCII))
                        .addLast("strOut", new StringEncoder(StandardCharsets.US_ASCII))
                        .addLast("app", new SimpleChannelInboundHandler<String>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, String line) {
                                onLine.accept(ctx, line);
                            }
                        });
            }
        };
    }

    @Test
    void bothSidesHandOverFromTheirHandlersAndTheDecoderCumulationReachesMpa() throws Exception {
        NioEventLoopGroup appLoop = new NioEventLoopGroup(1);
        try (SoftPair.Side client = new SoftPair.Side("C"); SoftPair.Side server = new SoftPair.Side("S")) {
            Target clientTarget = new Target(client);
            CompletableFuture<Connection> serverConn = new CompletableFuture<>();
            CompletableFuture<Connection> clientConn = new CompletableFuture<>();
            java.util.concurrent.CountDownLatch requestWritten = new java.util.concurrent.CountDownLatch(1);
            Channel listener = new ServerBootstrap().group(appLoop).channel(NioServerSocketChannel.class)
                    .childHandler(app(new RecordingLineDecoder("-"), (ctx, line) -> {
                        if (line.startsWith("HELLO ")) {
                            ctx.writeAndFlush("HELLO " + line.substring(6) + "\n");
                        } else if (line.equals("RDMA?")) {
                            ctx.write("RDMA!\n"); // not flushed: the hand-over must flush it before its Request
                            SoftHandOver.handOver(server.cm, ctx.channel(), null, server.qp,
                                    HandOverOptions.initiator(ConnectOptions.defaults().peerToPeer(RtrType.WRITE)))
                                    .whenComplete((c, e) -> complete(serverConn, c, e));
                            // on the channel's loop the hand-over ran at once: "RDMA!" and the Request are written
                            requestWritten.countDown();
                        }
                    })).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            RecordingLineDecoder clientDecoder = new RecordingLineDecoder("RDMA!");
            BlockingQueue<String> clientLines = new LinkedBlockingQueue<>();
            Channel ch = new Bootstrap().group(appLoop).channel(NioSocketChannel.class)
                    .handler(app(clientDecoder, (ctx, line) -> {
                        clientLines.add(line);
                        if (line.equals("RDMA!")) {
                            SoftHandOver.handOver(client.cm, ctx.channel(), null, client.qp,
                                    HandOverOptions.responder(ConnectOptions.defaults()).onRequest(offered ->
                                            HandOverVerdict.accept(AcceptOptions.defaults()
                                                    .privateData(clientTarget.advertise()))))
                                    .whenComplete((c, e) -> complete(clientConn, c, e));
                        }
                    })).connect(listener.localAddress()).sync().channel();
            ch.writeAndFlush("HELLO jrnic\n");
            assertEquals("HELLO jrnic", clientLines.poll(10, TimeUnit.SECONDS));
            ch.config().setAutoRead(false);
            ch.writeAndFlush("RDMA?\n").sync();
            // both "RDMA!\n" and the MPA Request were written to the loopback socket: one read takes them
            assertTrue(requestWritten.await(10, TimeUnit.SECONDS), "the server handed over");
            ch.read();
            Connection cs = serverConn.get(10, TimeUnit.SECONDS);
            clientConn.get(10, TimeUnit.SECONDS);
            assertTrue(clientDecoder.leftBehindWatched.get() > 0,
                    "MPA bytes were in the decoder's cumulation behind RDMA!: " + clientDecoder.leftBehindWatched);
            assertEquals(List.of("receiver"), ch.pipeline().names().subList(0, 1), "application handlers removed");
            assertFalse(ch.pipeline().names().contains("lines"));
            assertTrue(ch.config().getOption(ChannelOption.TCP_NODELAY));
            writeAndSend(server, cs, client, clientTarget, 7);
            listener.close().sync();
        } finally {
            appLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void complete(CompletableFuture<Connection> f, Connection c, Throwable e) {
        if (e != null) {
            f.completeExceptionally(e);
        } else {
            f.complete(c);
        }
    }

    @Test
    void timeoutHandsTheNettyChannelBackOpenWithAnEmptyPipeline() throws Exception {
        NioEventLoopGroup appLoop = new NioEventLoopGroup(1);
        try (SoftPair.Side b = new SoftPair.Side("B")) {
            BlockingQueue<String> serverLines = new LinkedBlockingQueue<>();
            CompletableFuture<Channel> accepted = new CompletableFuture<>();
            Channel listener = new ServerBootstrap().group(appLoop).channel(NioServerSocketChannel.class)
                    .childHandler(app(new RecordingLineDecoder("-"), (ctx, line) -> serverLines.add(line)))
                    .childOption(ChannelOption.TCP_NODELAY, false)
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            Channel client = new Bootstrap().group(appLoop).channel(NioSocketChannel.class)
                    .handler(app(new RecordingLineDecoder("-"), (ctx, line) -> accepted.complete(ctx.channel())))
                    .connect(listener.localAddress()).sync().channel();
            client.writeAndFlush("HI\n");
            assertEquals("HI", serverLines.poll(10, TimeUnit.SECONDS));
            client.writeAndFlush("PING\n");
            // hand over the client's channel as a responder; the server never sends a Request
            ExecutionException ex = assertThrows(ExecutionException.class, () -> SoftHandOver.handOver(b.cm, client,
                    null, b.qp, HandOverOptions.responder(ConnectOptions.defaults()
                            .mpaRequestTimeout(Duration.ofMillis(200))).returnChannelOnFailure(true))
                    .get(10, TimeUnit.SECONDS));
            HandOverFailedException e = assertInstanceOf(HandOverFailedException.class, ex.getCause());
            assertEquals(CmEventType.TIMEOUT, e.type());
            assertEquals("TIMEOUT", e.reason());
            assertTrue(e.channelReturned());
            assertTrue(client.isActive());
            assertTrue(client.pipeline().names().stream().allMatch(n -> n.contains("TailContext")),
                    client.pipeline().names().toString());
            client.pipeline().addLast(app(new RecordingLineDecoder("-"), (ctx, line) -> serverLines.add("back:" + line)));
            client.writeAndFlush(io.netty.buffer.Unpooled.copiedBuffer("STILL STREAMING\n", StandardCharsets.US_ASCII));
            assertEquals("PING", serverLines.poll(10, TimeUnit.SECONDS));
            assertEquals("STILL STREAMING", serverLines.poll(10, TimeUnit.SECONDS));
            client.close().sync();
            listener.close().sync();
        } finally {
            appLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
