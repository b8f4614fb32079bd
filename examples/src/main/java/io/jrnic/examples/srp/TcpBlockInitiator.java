package io.jrnic.examples.srp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The TCP baseline's initiator (see {@link TcpBlock}): same slots, credits and commands as {@link SrpInitiator}. */
public final class TcpBlockInitiator extends InitiatorBase {
    private final EventLoopGroup group = TcpBlock.group();
    private final Channel channel;
    private final SrpWire.Op[] ops;
    private final CompletableFuture<SrpWire.LoginAccept> loginReply = new CompletableFuture<>();

    private TcpBlockInitiator(InetSocketAddress target, int slots, int maxTransfer) throws Exception {
        super(slots, maxTransfer);
        ops = new SrpWire.Op[slots];
        try {
            channel = new Bootstrap().group(group).channel(TcpBlock.channelClass())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            TcpBlock.framing(ch.pipeline(), maxTransfer);
                            ch.pipeline().addLast(new Responses());
                        }
                    }).connect(target).sync().channel();
            channel.writeAndFlush(channel.alloc().buffer(SrpWire.LOGIN_REQ)
                    .writeBytes(new SrpWire.Login(slots, maxTransfer).encode()));
            loggedIn(loginReply.get(10, TimeUnit.SECONDS), maxTransfer);
        } catch (Exception e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    public static TcpBlockInitiator connect(InetSocketAddress target, int slots, int maxTransfer) throws Exception {
        return new TcpBlockInitiator(target, slots, maxTransfer);
    }

    private final class Responses extends SimpleChannelInboundHandler<ByteBuf> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf f) {
            if (!loginReply.isDone()) {
                byte[] b = new byte[f.readableBytes()];
                f.readBytes(b);
                loginReply.complete(SrpWire.LoginAccept.decode(b));
                return;
            }
            byte status = f.getByte(1);
            int slot = f.getInt(4);
            int delta = f.getInt(8);
            if (status == SrpWire.GOOD && ops[slot] == SrpWire.Op.READ) {
                ByteBuffer dst = buffers[slot].duplicate().clear();
                dst.limit(f.readableBytes() - SrpWire.RSP);
                f.getBytes(SrpWire.RSP, dst);
            }
            credits.release(delta);
            done.add(new Done(slot, status, 0, false, null));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            loginReply.completeExceptionally(cause);
            ctx.close();
        }
    }

    @Override
    public String name() {
        return "tcp";
    }






    @Override
    public void submit(int slot, SrpWire.Op op, long lba, int blocks) throws InterruptedException {
        int length = blocks * SrpWire.BLOCK;
        boolean write = op == SrpWire.Op.WRITE;
        ByteBuf f = channel.alloc().directBuffer(SrpWire.CMD + (write ? length : 0));
        ByteBuffer cmd = ByteBuffer.allocate(SrpWire.CMD);
        SrpWire.putCommand(cmd, op, slot, lba, blocks, 0, 0, length);
        f.writeBytes(cmd.array());
        if (write) {
            f.writeBytes(buffers[slot].duplicate().clear().limit(length));
        }
        ops[slot] = op;
        credits.acquire();
        channel.writeAndFlush(f);
    }


    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
