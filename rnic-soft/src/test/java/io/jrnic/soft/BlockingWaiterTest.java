package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ResourceClosedException;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.spi.InputWaiter;
import io.netty.channel.epoll.Epoll;
import java.io.File;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One wake-up for blocked consumers (spec-notes/engine.md, "Blocking waiters"): a thread blocked on the CQ of one QP
 * ({@code take}, or a completion channel whose only CQ it is) waits on the QP's socket itself and reads what arrives,
 * so the event loop is not woken in between; a completion made by another thread, or the QP's destruction, ends the
 * wait. Shown by the outcome: the messages were read by the waiting threads (rxInPlace, rxConsumerWaits), which
 * {@code -Djrnic.directWait=false} turns back into the loop's reads.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingWaiterTest {
    private static final int MSGS = 300;
    private static final int SIZE = 64;

    @BeforeEach
    void epoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "waiting on the socket needs the epoll transport");
    }

    @Test
    void consumersBlockedInTakeReadTheirMessagesThemselves() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            pingPong(p, false);
            assertReadByTheWaiters(p);
        }
    }

    @Test
    void consumersBlockedOnTheirChannelReadTheirMessagesThemselves() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            pingPong(p, true);
            assertReadByTheWaiters(p);
        }
    }

    /** A completion the event loop makes (a zero-copy WRITE's, once its bytes left) ends a wait on the socket. */
    @Test
    void aCompletionMadeByTheLoopEndsTheWait() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            java.nio.ByteBuffer src = java.nio.ByteBuffer.allocateDirect(256 * 1024);
            MemoryRegion a = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion b = p.b.pd.register(java.nio.ByteBuffer.allocateDirect(256 * 1024),
                    Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Completion[] c = Completion.array(4);
            for (int i = 0; i < 20; i++) {
                p.a.qp.postSend(SendWr.rdmaWrite().id(i).local(a.sge(0, 256 * 1024)).remote(b.stag(), 0).signaled());
                int n = p.a.cq.take(c, Duration.ofSeconds(20));
                assertEquals(1, n, "write " + i);
                assertEquals(CompletionStatus.SUCCESS, c[0].status());
            }
        }
    }

    /** The waiter is woken by {@link InputWaiter#wake} although nothing arrives on the socket. */
    @Test
    void wakeEndsAWaitOnAQuietSocket() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            pingPong(p, false); // first FPDUs exchanged: the QP receives in place
            InputWaiter w = p.a.qp.unwrap(SoftQp.class).inputWaiter();
            assertNotNull(w, "no waiter on an epoll stream that receives in place");
            long armed = p.a.dev.stats().counter("rxConsumerWaits");
            CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> w.await(TimeUnit.SECONDS.toNanos(60)));
            // the socket is armed just before the wait; a wake from then on is not lost (the eventfd stays readable)
            SoftPair.eventually(() -> p.a.dev.stats().counter("rxConsumerWaits") > armed || waited.isDone());
            Thread.sleep(50);
            long t0 = System.nanoTime();
            w.wake();
            assertTrue(waited.get(20, TimeUnit.SECONDS), "the wait did not end when woken");
            System.out.println("BlockingWaiterTest: woken after " + (System.nanoTime() - t0) / 1000 + " us");
        }
    }

    /** Destroying the QP while a consumer waits on its socket ends the wait and closes the wait's descriptors. */
    @Test
    void destroyingTheQpEndsTheWaitAndFreesItsDescriptors() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            pingPong(p, false);
            InputWaiter w = p.a.qp.unwrap(SoftQp.class).inputWaiter();
            assertNotNull(w);
            long before = openDescriptors();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    p.a.cq.take(Completion.array(1), Duration.ofSeconds(30));
                } catch (ResourceClosedException expected) {
                    // the CQ closed under the wait
                } catch (Throwable e) {
                    failed.set(e);
                }
            });
            t.start();
            Thread.sleep(100);
            p.a.qp.close();
            p.a.cq.close();
            t.join(20_000);
            assertFalse(t.isAlive(), "the blocked consumer is still waiting");
            assertNull(failed.get());
            assertFalse(w.await(1_000_000), "a destroyed QP's waiter still waits");
            SoftPair.eventually(() -> openDescriptors() <= before - 2); // the epoll set and eventfd (and the socket)
        }
    }

    @Test
    void aWaitOnAClosedCqThrows() throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            p.a.cq.close();
            assertThrows(ResourceClosedException.class, () -> p.a.cq.take(Completion.array(1), Duration.ofSeconds(5)));
        }
    }

    private static void assertReadByTheWaiters(SoftPair p) {
        for (SoftPair.Side s : new SoftPair.Side[] {p.a, p.b}) {
            long waits = s.dev.stats().counter("rxConsumerWaits");
            long inPlace = s.dev.stats().counter("rxInPlace");
            System.out.println("BlockingWaiterTest: " + s.qp.context() + " waited on its socket " + waits
                    + " times, read in place " + inPlace + " times, " + MSGS + " messages");
            assertTrue(waits > 0, s.qp.context() + " never waited on its socket");
            assertTrue(inPlace >= MSGS / 2, s.qp.context() + " read " + inPlace + " of " + MSGS
                    + " messages itself: the event loop read the rest");
            // each message's read drained the socket: the consumer's next poll, just before it blocks, reads nothing
            // and is skipped (its wait returns at once if octets came since)
            long skips = s.dev.stats().counter("rxInPlaceSkips");
            assertTrue(skips >= MSGS / 2, s.qp.context() + " skipped " + skips + " futile reads in " + MSGS
                    + " messages");
        }
    }

    /** A SEND ping-pong whose both sides block: {@code take}, or arm + channel await. Every byte checked. */
    private static void pingPong(SoftPair p, boolean channel) throws Exception {
        EchoPingPong.run(p, MSGS, SIZE, (side, c) -> block(side, c, channel));
    }

    private static int block(SoftPair.Side s, Completion[] c, boolean channel) throws Exception {
        if (!channel) {
            return s.cq.take(c, Duration.ofSeconds(20));
        }
        while (true) {
            int n = s.cq.poll(c);
            if (n > 0) {
                return n;
            }
            s.cq.requestNotify(false);
            n = s.cq.poll(c);
            if (n > 0) {
                return n;
            }
            assertEquals(s.cq, s.channel.await(20, TimeUnit.SECONDS), "no notification");
        }
    }

    private static long openDescriptors() {
        String[] fds = new File("/proc/self/fd").list();
        return fds == null ? 0 : fds.length;
    }
}
