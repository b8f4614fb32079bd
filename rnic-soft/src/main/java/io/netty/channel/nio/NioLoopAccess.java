package io.netty.channel.nio;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.Executor;

/**
 * Builds one {@link NioEventLoop} outside a {@link NioEventLoopGroup} (its constructor is package-private: a class in
 * Netty's package, so on the class path only), for the same reason as {@code io.netty.channel.epoll.EpollLoopAccess}.
 * The constructor takes only a NioEventLoopGroup as parent, and any NioEventLoopGroup builds loops of its own: the
 * loop has no parent ({@code parent()} is null; Netty's transport does not read it). Pinned to Netty 4.1.137.Final's
 * constructor; the other arguments are NioEventLoopGroup's defaults.
 */
public final class NioLoopAccess {
    private NioLoopAccess() {
    }

    /** A new NIO loop (the platform's selector), whose thread {@code executor} starts (once, on its first task). */
    public static EventLoop newLoop(Executor executor) {
        return new NioEventLoop(null, executor, SelectorProvider.provider(),
                DefaultSelectStrategyFactory.INSTANCE.newSelectStrategy(), RejectedExecutionHandlers.reject(),
                null, null);
    }
}
