package io.jrnic.examples.srp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

/**
 * The same block protocol over plain TCP (the baseline): each message is a u32-length-prefixed
 * frame; LOGIN_REQ/LOGIN_RSP are the first frames; a WRITE command frame carries its data after
 * the 36-byte command, a READ response frame carries its data after the 12-byte response. STag and
 * TaggedOffset are sent as zero. Same event loop kind as jrnic's soft provider (epoll when
 * available, else NIO), one thread per side.
 */
final class TcpBlock {
    private TcpBlock() {
    }

    static EventLoopGroup group() {
        return Epoll.isAvailable() ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
    }

    static Class<? extends Channel> channelClass() {
        return Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    static Class<? extends ServerChannel> serverClass() {
        return Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static void framing(ChannelPipeline p, int maxTransfer) {
        p.addLast(new LengthFieldBasedFrameDecoder(maxTransfer + SrpWire.CMD + 4, 0, 4, 0, 4));
        p.addLast(new LengthFieldPrepender(4));
    }
}
