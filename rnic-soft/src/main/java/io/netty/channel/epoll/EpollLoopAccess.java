package io.netty.channel.epoll;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.RejectedExecutionHandlers;
import java.util.concurrent.Executor;

/**
 * Builds one {@link EpollEventLoop} outside an {@link EpollEventLoopGroup} (its constructor is package-private: a
 * class in Netty's package, so on the class path only). Netty's groups add a listener to each loop's termination
 * promise, which Netty notifies on its GlobalEventExecutor, a non-daemon thread; jrnic's own group
 * ({@code io.jrnic.soft.net.LoopGroup}) adds none. Pinned to Netty 4.1.137.Final's constructor; the arguments are
 * the ones EpollEventLoopGroup gives by default (no event limit, default select strategy, reject when full, default
 * task queues).
 */
public final class EpollLoopAccess {
    private EpollLoopAccess() {
    }

    /** A new epoll loop of {@code parent}, whose thread {@code executor} starts (once, on its first task). */
    public static EventLoop newLoop(EventLoopGroup parent, Executor executor) {
        Epoll.ensureAvailability();
        return new EpollEventLoop(parent, executor, 0, DefaultSelectStrategyFactory.INSTANCE.newSelectStrategy(),
                RejectedExecutionHandlers.reject(), null, null);
    }
}
