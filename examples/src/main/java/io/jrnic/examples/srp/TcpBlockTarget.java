package io.jrnic.examples.srp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/** The TCP baseline's target (see {@link TcpBlock}): device I/O on the connection's event loop. */
public final class TcpBlockTarget implements AutoCloseable {
    private final EventLoopGroup group = TcpBlock.group();
    private final Channel server;
    private final BlockDevice device;
    private final int requestLimit;
    private final int maxTransfer;

    private TcpBlockTarget(InetSocketAddress bind, BlockDevice device, int requestLimit, int maxTransfer)
            throws InterruptedException {
        this.device = device;
        this.requestLimit = requestLimit;
        this.maxTransfer = maxTransfer;
        server = new ServerBootstrap().group(group).channel(TcpBlock.serverClass())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        TcpBlock.framing(ch.pipeline(), maxTransfer);
                        ch.pipeline().addLast(new Session());
                    }
                }).bind(bind).sync().channel();
    }

    public static TcpBlockTarget start(InetSocketAddress bind, BlockDevice device, int requestLimit, int maxTransfer)
            throws InterruptedException {
        return new TcpBlockTarget(bind, device, requestLimit, maxTransfer);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    private final class Session extends SimpleChannelInboundHandler<ByteBuf> {
        private int transfer;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
            if (transfer == 0) {
                byte[] b = new byte[frame.readableBytes()];
                frame.readBytes(b);
                SrpWire.Login asked = SrpWire.Login.decode(b);
                transfer = Math.min(asked.maxTransfer(), maxTransfer);
                int limit = Math.max(1, Math.min(asked.requestLimit(), requestLimit));
                ctx.writeAndFlush(ctx.alloc().buffer(SrpWire.LOGIN_RSP)
                        .writeBytes(new SrpWire.LoginAccept(limit, transfer, device.blocks()).encode()));
                return;
            }
            SrpWire.Command cmd = SrpWire.Command.read(frame.nioBuffer(), 0);
            byte status = cmd == null ? SrpWire.BAD_DESCRIPTOR : cmd.check(device.blocks(), transfer);
            int tag = cmd == null ? -1 : cmd.tag();
            boolean read = status == SrpWire.GOOD && cmd.op() == SrpWire.Op.READ;
            ByteBuf out = ctx.alloc().directBuffer(SrpWire.RSP + (read ? cmd.length() : 0));
            try {
                if (status == SrpWire.GOOD && read) {
                    ByteBuffer dst = out.nioBuffer(SrpWire.RSP, cmd.length());
                    device.read(cmd.lba(), dst);
                    out.writerIndex(SrpWire.RSP + cmd.length());
                } else if (status == SrpWire.GOOD) {
                    if (frame.readableBytes() != SrpWire.CMD + cmd.length()) {
                        status = SrpWire.BAD_DESCRIPTOR;
                    } else {
                        device.write(cmd.lba(), frame.nioBuffer(SrpWire.CMD, cmd.length()));
                    }
                }
            } catch (IOException e) {
                status = SrpWire.IO_ERROR;
                out.writerIndex(0);
            }
            ByteBuffer rsp = ByteBuffer.allocate(SrpWire.RSP);
            SrpWire.putResponse(rsp, status, tag, 1);
            out.setBytes(0, rsp.array());
            if (status != SrpWire.GOOD || !read) {
                out.writerIndex(SrpWire.RSP);
            }
            ctx.writeAndFlush(out);
        }
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
