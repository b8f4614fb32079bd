package io.jrnic.soft;

import static io.jrnic.soft.SpinningConsumer.pingPong;
import static io.jrnic.soft.SpinningConsumer.spinPolls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.engine.InPlaceProbe;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The event loop's watchdog while polling threads own a stream's reads (spec-notes/engine.md, "Blocking waiters"): it
 * looks every millisecond whether to hand the reads back, never waits for the QP's token behind a poller's read, and
 * allocates nothing per turn. The take-over itself: {@link ReceiveInPlaceTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReceiveInPlaceWatchdogTest {
    private static final int SIZE = 64;

    /**
     * While pollers own the reads (the loop's auto-read off, its watchdog looking every millisecond), one poller held
     * inside its read holds the QP's lock while another keeps polling. The watchdog finds the lock taken and looks
     * again at its next turn: the loop goes on serving its other work (it used to wait for the lock at every turn;
     * the requester's loop of a two-host READ waited there 1,200 times a second).
     */
    @Test
    void theWatchdogDoesNotHoldTheLoopBehindAPollersRead() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            MemoryRegion aBuf = p.a.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
            MemoryRegion bBuf = p.b.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
            io.netty.channel.Channel stream = SoftPair.engineOf(p.a.qp).channel();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
            Runnable poll = () -> {
                Completion[] mine = Completion.array(4);
                while (!stop.get()) {
                    received.addAndGet(p.a.cq.poll(mine));
                }
            };
            Thread first = new Thread(poll, "poller-1");
            Thread second = new Thread(poll, "poller-2");
            first.setDaemon(true); // a failed assertion leaves them to stop with the JVM
            second.setDaemon(true);
            int posted = 0;
            boolean checked = false;
            for (int i = 0; i < 400; i++) {
                p.a.qp.postRecv(RecvWr.of(i, aBuf.sge(0, SIZE))); // more than B sends: empty polls read
            }
            first.start();
            second.start();
            for (int attempt = 0; attempt < 5 && !checked; attempt++) {
                // B's messages, read by A's two spinning pollers, until they take the reads from the loop
                int now = 0;
                while (posted < 300 && (now++ < 8 || stream.config().isAutoRead())) {
                    p.b.qp.postSend(SendWr.send().id(posted++).local(bBuf.sge(0, SIZE)).signaled(false));
                    Thread.sleep(1);
                }
                java.util.concurrent.CountDownLatch inRead = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
                java.util.concurrent.atomic.AtomicBoolean pollersRead = new java.util.concurrent.atomic.AtomicBoolean();
                InPlaceProbe.beforeRead(ch -> {
                    if (ch == stream && armed.compareAndSet(false, true)) {
                        pollersRead.set(!ch.config().isAutoRead()); // under the lock: stays so while held
                        inRead.countDown();
                        try {
                            release.await(20, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                });
                try {
                    assertTrue(inRead.await(10, TimeUnit.SECONDS), "no poller read in place");
                    if (pollersRead.get()) { // else the loop had the reads back already: no watchdog to check
                        Thread.sleep(20); // its turns come while one poller holds the lock and the other polls
                        io.netty.util.concurrent.Future<?> ran = stream.eventLoop().submit(() -> { });
                        assertTrue(ran.await(5, TimeUnit.SECONDS), "the loop waited for the QP's lock behind a poller's read");
                        checked = true;
                    }
                } finally {
                    release.countDown();
                    InPlaceProbe.beforeRead(null);
                }
            }
            assertTrue(checked, "no poller was held in a read while the pollers had the reads");
            // one more message, and every one of B's arrives at A
            p.b.qp.postSend(SendWr.send().id(posted++).local(bBuf.sge(0, SIZE)).signaled(false));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (received.get() < posted && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            stop.set(true);
            first.join(10_000);
            second.join(10_000);
            assertEquals(posted, received.get(), "receives completed at A");
        }
    }

    /**
     * While a poller owns the reads, the loop's watchdog looks every millisecond: one periodic timer for the whole
     * take-over, so its turns allocate nothing on the loop (a timer task scheduled anew at each turn allocated
     * ~16 KiB in these 300 ms).
     */
    @Test
    void theWatchdogAllocatesNothingPerTurn() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        try (SoftPair p = new SoftPair()) {
            p.connB();
            MemoryRegion aBuf = p.a.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
            MemoryRegion bBuf = p.b.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
            io.netty.channel.Channel stream = SoftPair.engineOf(p.a.qp).channel();
            long loopThread = stream.eventLoop().submit(() -> Thread.currentThread().getId()).get(10, TimeUnit.SECONDS);
            Completion[] c = Completion.array(4);
            // one receive more than the ping-pongs fill stays posted on A (a poll reads in place only for a QP that
            // awaits something; receives fill in order, and each ping-pong posts one and fills one)
            p.a.qp.postRecv(RecvWr.of(9999, aBuf.sge(0, SIZE)));
            // a window counts only if the take-over lasted through it: a poller descheduled for over 1 ms (a loaded
            // machine) rightly hands the reads back, and the loop's work then is not the watchdog's
            long allocated = -1;
            for (int attempt = 0; attempt < 5 && allocated < 0; attempt++) {
                // spinning ping-pongs until A's poller takes the reads (as in ReceiveInPlaceTest.pollersTakeTheReads...: up to 10 rounds)
                for (int round = 0; round < 10 && stream.config().isAutoRead(); round++) {
                    pingPong(p, 200, aBuf, bBuf, c);
                }
                // this thread goes on polling A's empty CQ: the take-over lasts, the watchdog turns every millisecond
                spinPolls(p.a, c, 50); // the last messages' work on the loop done
                if (stream.config().isAutoRead()) {
                    continue;
                }
                long before = threads.getThreadAllocatedBytes(loopThread);
                spinPolls(p.a, c, 300);
                long after = threads.getThreadAllocatedBytes(loopThread);
                if (!stream.config().isAutoRead()) {
                    allocated = after - before;
                }
            }
            Assumptions.assumeTrue(allocated >= 0, "no take-over lasted through a 300 ms window (a loaded machine)");
            assertTrue(allocated < 2048, "the loop allocated " + allocated + " B in 300 ms of watchdog turns");
        }
    }
}
