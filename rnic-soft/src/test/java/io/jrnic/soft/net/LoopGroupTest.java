package io.jrnic.soft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoop;
import io.netty.channel.epoll.Epoll;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** jrnic's event loop group: Netty's loops, round robin, and a termination nothing but the loops' own threads report. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoopGroupTest {

    @Test
    void loopsArePickedRoundRobinAndRunOnDaemonThreadsNamedForTheGroup() throws Exception {
        LoopGroup g = LoopGroup.nio(2, "loop-test-rr");
        try {
            EventLoop first = g.next();
            EventLoop second = g.next();
            assertNotSame(first, second);
            assertSame(first, g.next());
            List<EventExecutor> all = new ArrayList<>();
            g.iterator().forEachRemaining(all::add);
            assertEquals(List.of(first, second), all);
            Thread t = first.submit(Thread::currentThread).get();
            assertTrue(t.getName().startsWith("loop-test-rr-"), t.getName());
            assertTrue(t.isDaemon());
            assertTrue(first.inEventLoop(t));
        } finally {
            g.close();
        }
    }

    @Test
    void theLastLoopThreadReportsTheGroupsTerminationAndCloseReturnsWhenTheThreadsEnded() throws Exception {
        LoopGroup g = LoopGroup.nio(3, "loop-test-end");
        Thread ran = g.next().submit(Thread::currentThread).get(); // one loop ran, two never did
        AtomicReference<Thread> reportedOn = new AtomicReference<>();
        g.terminationFuture().addListener(f -> reportedOn.set(Thread.currentThread()));
        assertFalse(g.isShuttingDown());
        g.close();
        assertTrue(g.isShutdown());
        assertTrue(g.isTerminated());
        g.forEach(l -> assertTrue(l.isTerminated()));
        assertTrue(reportedOn.get().getName().startsWith("loop-test-end-"),
                "reported on a loop thread, not Netty's GlobalEventExecutor: " + reportedOn.get().getName());
        assertFalse(ran.isAlive());
        assertFalse(reportedOn.get().isAlive());
    }

    @Test
    void epollLoopsBelongToTheGroup() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "native epoll");
        LoopGroup g = LoopGroup.epoll(1, "loop-test-epoll");
        try {
            EventLoop l = g.next();
            assertSame(g, l.parent());
            assertTrue(l.submit(() -> Thread.currentThread().getName()).get().startsWith("loop-test-epoll-"));
        } finally {
            g.close();
        }
        assertTrue(g.awaitTermination(0, TimeUnit.SECONDS));
    }
}
