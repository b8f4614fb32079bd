package io.jrnic.interop.fault;

import io.jrnic.interop.fault.FaultPlan.Direction;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay between a client and a target that injects the faults of a {@link FaultPlan}: writes split at
 * random boundaries, delays, a stall (the proxy stops reading, so the sender sees a zero window), a cut by
 * FIN or RST at a chosen byte, an inverted byte. Loopback only: it refuses to listen or connect elsewhere.
 * Every connection it accepts is relayed to the target with the plan, its random source seeded by the plan's
 * seed and the connection's number; {@link #events()} records what was done, for tests and reproducers.
 */
public final class FaultProxy implements AutoCloseable {
    private final FaultPlan plan;
    private final InetSocketAddress target;
    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final Channel server;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<String> events = new CopyOnWriteArrayList<>();

    private FaultProxy(InetSocketAddress listen, InetSocketAddress target, FaultPlan plan) throws InterruptedException {
        this.plan = plan;
        this.target = target;
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel client) {
                        relay(client, connections.incrementAndGet());
                    }
                }).bind(listen).sync().channel();
    }

    /**
     * Listens on {@code listen} (port 0: ephemeral) and relays to {@code target}.
     *
     * @throws IllegalArgumentException when either address is not a loopback address
     */
    public static FaultProxy start(InetSocketAddress listen, InetSocketAddress target, FaultPlan plan)
            throws InterruptedException {
        if (!listen.getAddress().isLoopbackAddress() || !target.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("the fault proxy works on loopback only: " + listen + " -> " + target);
        }
        return new FaultProxy(listen, target, plan);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** What the proxy did, in order ("conn 1 CLIENT_TO_TARGET chunk 17", "... cut FIN at 4096", ...). */
    public List<String> events() {
        return List.copyOf(events);
    }

    /** Connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    private void relay(SocketChannel client, int n) {
        // the target's channel on the client's loop: both pumps of a connection, and their outboxes, on one thread
        Bootstrap b = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.AUTO_READ, false).option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInboundHandlerAdapter());
        b.connect(target).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                events.add("conn " + n + " target unreachable");
                client.close();
                return;
            }
            Channel t = f.channel();
            SplittableRandom random = new SplittableRandom(plan.seed() * 1_000_003L + n);
            Pump up = new Pump(n, Direction.CLIENT_TO_TARGET, t, random.split());
            Pump down = new Pump(n, Direction.TARGET_TO_CLIENT, client, random.split());
            up.peer = down;
            down.peer = up;
            client.pipeline().addLast(up);
            t.pipeline().addLast(down);
            client.read();
            t.read();
        });
    }

    /** One direction: reads from its channel, applies the plan, writes to {@code out}. */
    private final class Pump extends ChannelInboundHandlerAdapter {
        private final int conn;
        private final Direction dir;
        private final Channel out;
        private final SplittableRandom random;
        private final boolean faulty;
        /** Everything this direction writes, cuts or reads on goes through this, in order (see ReleaseQueue). */
        private final ReleaseQueue outbox;
        private long offset;
        /** Release time of the last chunk queued. */
        private long nextSendNanos;
        private boolean cut;
        private boolean stalled;
        /** Not reading now (stalled); the other direction's pump resumes reading only when this is false. */
        private boolean paused;
        /** The pump of the other direction (it reads from {@link #out}). */
        Pump peer;

        Pump(int conn, Direction dir, Channel out, SplittableRandom random) {
            this.conn = conn;
            this.dir = dir;
            this.out = out;
            this.random = random;
            this.faulty = plan.direction() == dir;
            this.outbox = new ReleaseQueue(out.eventLoop());
        }

        private void log(String what) {
            events.add("conn " + conn + " " + dir + " " + what);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            if (cut) {
                in.release();
                return;
            }
            long start = offset;
            long end = start + in.readableBytes();
            offset = end;
            if (faulty && plan.flipAt() >= start && plan.flipAt() < end) {
                int i = in.readerIndex() + (int) (plan.flipAt() - start);
                in.setByte(i, in.getByte(i) ^ 0xFF);
                log("flip at " + plan.flipAt());
            }
            if (faulty && plan.cutAt() >= 0 && end >= plan.cutAt()) {
                int keep = (int) (plan.cutAt() - start);
                send(in.readRetainedSlice(keep));
                in.release();
                cutNow(ctx);
                return;
            }
            send(in);
            if (faulty && !stalled && plan.stallAt() >= 0 && end >= plan.stallAt()) {
                stalled = true;
                paused = true;
                log("stall at " + end + (plan.stallMillis() > 0 ? " for " + plan.stallMillis() + " ms" : ""));
                if (plan.stallMillis() > 0) {
                    ctx.executor().schedule(() -> {
                        log("resume");
                        paused = false;
                        ctx.channel().read();
                    }, plan.stallMillis(), TimeUnit.MILLISECONDS);
                }
                return; // no read() while stalled
            }
            readOn(ctx);
        }

        /**
         * Reads the next chunk of the source once what was read has been handed on: at once, or, with a delay,
         * when the last delayed chunk leaves (so delayed bytes never pile up beyond one read); not while the
         * destination is full (its writability event reads on).
         */
        private void readOn(ChannelHandlerContext ctx) {
            outbox.add(nextSendNanos, () -> {
                if (!paused && !cut && out.isWritable()) {
                    ctx.channel().read();
                }
            });
        }

        /**
         * Writes {@code b} in random chunks, each the plan's delay after the previous one (without a delay at
         * once); ownership passes to the writes.
         */
        private void send(ByteBuf b) {
            while (b.isReadable()) {
                int n = plan.maxChunk() == 0 ? b.readableBytes()
                        : Math.min(b.readableBytes(), 1 + random.nextInt(plan.maxChunk()));
                ByteBuf chunk = b.readRetainedSlice(n);
                if (plan.maxChunk() > 0) {
                    log("chunk " + n);
                }
                nextSendNanos = Math.max(System.nanoTime(), nextSendNanos)
                        + TimeUnit.MILLISECONDS.toNanos(plan.delayMillis());
                outbox.add(nextSendNanos, () -> out.writeAndFlush(chunk));
            }
            b.release();
        }

        private void cutNow(ChannelHandlerContext ctx) {
            cut = true;
            log("cut " + (plan.cutWithReset() ? "RST" : "FIN") + " at " + plan.cutAt());
            Runnable doCut = () -> {
                if (plan.cutWithReset()) {
                    reset(out);
                    reset(ctx.channel());
                } else {
                    out.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                    ctx.close();
                }
            };
            outbox.add(nextSendNanos, doCut); // after the bytes before the cut
        }

        private void reset(Channel c) {
            if (c.isOpen()) {
                c.config().setOption(ChannelOption.SO_LINGER, 0);
                c.close();
            }
        }

        /** This pump's source channel can take writes again: the other direction, which writes to it, reads on. */
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable() && peer != null && !peer.paused && !peer.cut) {
                out.read();
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (!cut) {
                // the peer closed: pass the FIN on once what was relayed has been written (delayed chunks too)
                outbox.add(nextSendNanos, () -> {
                    if (out.isOpen()) {
                        out.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                                .addListener(ChannelFutureListener.CLOSE);
                    }
                });
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log("error " + cause.getClass().getSimpleName());
            reset(out);
            ctx.close();
        }
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
