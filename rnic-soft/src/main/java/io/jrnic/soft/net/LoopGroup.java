package io.jrnic.soft.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollLoopAccess;
import io.netty.channel.nio.NioLoopAccess;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A device's event loops: Netty's own {@link EventLoop}s (epoll or NIO) in a group of jrnic's, so that no thread
 * outlives the device. Netty's groups listen to each loop's termination promise, and Netty notifies those listeners on
 * its GlobalEventExecutor, whose non-daemon thread then keeps the JVM alive for its quiet period (1 s) after the last
 * device closed. Here nothing listens to a loop's termination: the group's own {@link #terminationFuture()} is
 * completed, on the spot, by the last loop thread as it ends (its {@link Executor} wraps each loop's run), and
 * {@link #close()} also waits for every loop thread to end. Loops are picked round robin; the threads are named
 * {@code <name>-<pool>-<n>} and are daemon threads.
 */
final class LoopGroup extends AbstractEventExecutorGroup implements EventLoopGroup {
    private final EventLoop[] loops;
    private final AtomicInteger nextIndex = new AtomicInteger();
    /** Completed by the last loop thread as it ends; no deadlock check (its executor runs listeners in place). */
    private final Promise<Void> termination = ImmediateEventExecutor.INSTANCE.newPromise();
    private final ThreadFactory threadFactory;
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

    /** {@code count} epoll loops (Netty's native transport must be available). */
    static LoopGroup epoll(int count, String name) {
        return new LoopGroup(count, name, EpollLoopAccess::newLoop);
    }

    /** {@code count} NIO loops (their {@code parent()} is null: see {@code NioLoopAccess}). */
    static LoopGroup nio(int count, String name) {
        return new LoopGroup(count, name, (group, executor) -> NioLoopAccess.newLoop(executor));
    }

    private LoopGroup(int count, String name, BiFunction<LoopGroup, Executor, EventLoop> newLoop) {
        if (count < 1) {
            throw new IllegalArgumentException("event loops: " + count + " (at least 1)");
        }
        threadFactory = new DefaultThreadFactory(name, true);
        loops = new EventLoop[count];
        Executor startThread = this::startThread;
        for (int i = 0; i < count; i++) {
            try {
                loops[i] = newLoop.apply(this, startThread);
            } catch (RuntimeException | Error e) {
                for (int j = 0; j < i; j++) {
                    loops[j].shutdownGracefully(0, 0, TimeUnit.SECONDS);
                }
                throw e;
            }
        }
    }

    /** A loop's thread (a loop asks once, on its first task): the loop's run, then the group's termination check. */
    private void startThread(Runnable loopRun) {
        Thread t = threadFactory.newThread(() -> {
            try {
                loopRun.run();
            } finally {
                loopEnded();
            }
        });
        threads.add(t);
        t.start();
    }

    /** On a loop thread whose loop has terminated: the last one completes the group's termination. */
    private void loopEnded() {
        for (EventLoop l : loops) {
            if (l == null || !l.isTerminated()) {
                return;
            }
        }
        termination.trySuccess(null);
    }

    /**
     * Shuts every loop down (no quiet period, at most 2 s for the tasks already queued) and returns once every loop
     * thread has ended.
     */
    void close() {
        shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        boolean interrupted = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public EventLoop next() {
        return loops[Math.floorMod(nextIndex.getAndIncrement(), loops.length)];
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return List.<EventExecutor>of(loops).iterator();
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return next().register(channel);
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        return next().register(promise);
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        return next().register(channel, promise);
    }

    @Override
    public boolean isShuttingDown() {
        for (EventLoop l : loops) {
            if (!l.isShuttingDown()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        for (EventLoop l : loops) {
            l.shutdownGracefully(quietPeriod, timeout, unit);
        }
        return termination;
    }

    @Override
    public Future<?> terminationFuture() {
        return termination;
    }

    @Deprecated
    @Override
    public void shutdown() {
        for (EventLoop l : loops) {
            l.shutdown();
        }
    }

    @Override
    public boolean isShutdown() {
        for (EventLoop l : loops) {
            if (!l.isShutdown()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isTerminated() {
        return termination.isDone();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return termination.await(timeout, unit);
    }
}
