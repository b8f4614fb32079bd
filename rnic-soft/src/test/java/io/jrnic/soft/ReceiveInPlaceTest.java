package io.jrnic.soft;

import static io.jrnic.soft.SpinningConsumer.drain;
import static io.jrnic.soft.SpinningConsumer.pingPong;
import static io.jrnic.soft.SpinningConsumer.spin;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.soft.engine.InPlaceProbe;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Receive in place: a thread polling an empty CQ reads the stream itself (CompletionQueue.poll/progress) instead
 * of waiting for the event loop; its reads and the loop's take the stream's bytes in order (LoopReadGate). The loop's
 * watchdog during a take-over: {@link ReceiveInPlaceWatchdogTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReceiveInPlaceTest {
    private static final int MSGS = 500;
    private static final int SIZE = 64;

    /** A SEND ping-pong whose both sides spin on their CQs: the replies are read by the pollers. */
    @Test
    void busyPollingConsumersReadTheirMessagesThemselves() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            EchoPingPong.run(p, MSGS, SIZE, SpinningConsumer::spin);
            long a = p.a.dev.stats().counter("rxInPlace");
            long b = p.b.dev.stats().counter("rxInPlace");
            System.out.println("ReceiveInPlaceTest: reads in place A " + a + ", B " + b + " of " + MSGS + " messages each");
            // that the pollers read in place is shown by its outcome in InPlaceOwnershipTest (the loop held busy)
        }
    }

    /**
     * Spinning pollers that keep finding the data first take the stream's reads from the event loop (its auto-read
     * off); a consumer that then blocks on its completion channel still gets the next message, and so does one that
     * just stops polling without arming (a watchdog gives the reads back): nothing stays unread in the socket.
     */
    @Test
    void pollersTakeTheReadsFromTheLoopAndNothingIsLeftUnreadWhenTheyStop() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] aBytes = new byte[SIZE];
            MemoryRegion aBuf = p.a.pd.register(aBytes, Access.LOCAL_WRITE);
            MemoryRegion bBuf = p.b.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
            Completion[] c = Completion.array(4);
            // a takeover needs TAKE_OVER_STREAK in-place reads in a row that beat the loop: under load (the whole
            // suite on 2 cores) 200 round trips may have none, so up to 10 rounds of them
            long takeovers = 0;
            for (int round = 0; round < 10 && takeovers == 0; round++) {
                pingPong(p, 200, aBuf, bBuf, c);
                takeovers = p.a.dev.stats().counter("rxPollerTakeovers");
            }
            System.out.println("ReceiveInPlaceTest: A's pollers took the reads from the loop " + takeovers + " times");
            assertTrue(takeovers > 0, "A's spinning poller never took the reads from the event loop");

            // A arms its CQ and blocks: the loop must read B's message and notify
            p.a.qp.postRecv(RecvWr.of(1000, aBuf.sge(0, SIZE)));
            p.a.cq.requestNotify(false);
            p.b.qp.postSend(SendWr.send().id(1000).local(bBuf.sge(0, SIZE)));
            assertEquals(p.a.cq, p.a.channel.await(10, TimeUnit.SECONDS), "no notification: the message stayed unread");
            assertEquals(1, p.a.cq.poll(c));

            // spin again until the pollers own the reads, then stop polling without arming
            pingPong(p, 50, aBuf, bBuf, c);
            p.a.qp.postRecv(RecvWr.of(2000, aBuf.sge(0, SIZE)));
            p.b.qp.postSend(SendWr.send().id(2000).local(bBuf.sge(0, SIZE)));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (p.a.cq.size() == 0 && System.nanoTime() < end) { // size() does not progress: only the loop reads
                Thread.sleep(5);
            }
            assertEquals(1, p.a.cq.size(), "a consumer that stopped polling never got the message");
        }
    }

    /**
     * A's event loop is held busy, so the Read Response is read by A's spinning poller, in place: the READ it ends is
     * retired there too (the poller pumps after a read that left the sending side work), not left for the loop.
     */
    @Test
    void aReadResponseReadByThePollerCompletesItsReadThere() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            Completion[] c = Completion.array(4);
            pastFirstFpdus(p, c);
            byte[] source = new byte[SIZE];
            new Random(7).nextBytes(source);
            MemoryRegion bSource = p.b.pd.register(source.clone(), Access.REMOTE_READ);
            byte[] sink = new byte[SIZE];
            MemoryRegion aSink = p.a.pd.register(sink, Access.LOCAL_WRITE);
            long inPlaceBefore = p.a.dev.stats().counter("rxInPlace");

            java.util.concurrent.CountDownLatch release =
                    SoftPair.holdLoop(SoftPair.engineOf(p.a.qp).channel().eventLoop());
            try {
                p.a.qp.postSend(SendWr.rdmaRead().id(5).local(aSink.sge(0, SIZE)).remote(bSource.stag(), 0).signaled());
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int n;
                while ((n = p.a.cq.poll(c)) == 0 && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                assertEquals(1, n, "the READ did not complete on the poller while the loop was held");
                assertEquals(5, c[0].id());
                assertEquals(CompletionStatus.SUCCESS, c[0].status());
            } finally {
                release.countDown();
            }
            assertArrayEquals(source, sink);
            assertTrue(p.a.dev.stats().counter("rxInPlace") > inPlaceBefore, "the response was not read in place");
        }
    }

    /**
     * The peer resets the stream (its connection manager closes: RST) while A's event loop is held busy, so A's
     * spinning poller is the one that meets the reset, in place: an LLP error. Once the loop runs again it closes the
     * stream (the close is ordered by the QP's lock): A's QP goes to ERROR with QP_LLP_ERROR, and its posted receive
     * flushes to the poller.
     */
    @Test
    void aResetMetByAPollersReadIsAnLlpErrorThatFlushes() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            Completion[] c = Completion.array(4);
            MemoryRegion aBuf = pastFirstFpdus(p, c);
            p.a.qp.postRecv(RecvWr.of(77, aBuf.sge(0, SIZE)));

            java.util.concurrent.CountDownLatch release =
                    SoftPair.holdLoop(SoftPair.engineOf(p.a.qp).channel().eventLoop());
            Thread releaser = new Thread(() -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (p.a.dev.stats().counter("rxInPlaceFailures") == 0 && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                release.countDown();
            }, "releaser");
            try {
                releaser.start();
                p.b.cm.close(); // aborts B's connections: RST
                int n = spin(p.a, c); // reads in place: meets the reset; the flush comes once the loop runs
                assertEquals(1, n);
                assertEquals(77, c[0].id());
                assertEquals(CompletionStatus.WR_FLUSH_ERROR, c[0].status());
            } finally {
                release.countDown();
                releaser.join(10_000);
            }
            assertEquals(1, p.a.dev.stats().counter("rxInPlaceFailures"), "A's poller did not meet the reset");
            p.a.awaitEvent(io.jrnic.verbs.AsyncEventType.QP_LLP_ERROR);
            assertEquals(io.jrnic.verbs.QpState.ERROR, p.a.qp.state());
        }
    }

    /**
     * A poll's turn reads on while its reads come back full (a placed payload's rest, then the next FPDU's head, then
     * its payload), at most {@code READS_PER_TURN} (8) reads, instead of returning to the caller after each: RDMA
     * Writes of 64 KiB into direct memory, each placed from the socket in two 32 KiB FPDUs, streamed to a spinning
     * receiver whose event loop is held busy, every byte checked.
     */
    @Test
    void aPollReadsOnWhileItsReadsComeBackFull() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        int size = 64 * 1024;
        int writes = 256;
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] srcBytes = new byte[size];
            new Random(5).nextBytes(srcBytes);
            java.nio.ByteBuffer srcMem = java.nio.ByteBuffer.allocateDirect(size).put(srcBytes).clear();
            MemoryRegion src = p.a.pd.register(srcMem, Access.LOCAL_WRITE);
            java.nio.ByteBuffer dstMem = java.nio.ByteBuffer.allocateDirect(size);
            MemoryRegion dst = p.b.pd.register(dstMem, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion note = p.b.pd.register(new byte[8], Access.LOCAL_WRITE);
            Thread pollerThread = Thread.currentThread();
            int[] readsThisPoll = new int[1];
            InPlaceProbe.beforeRead(ch -> {
                if (Thread.currentThread() == pollerThread) {
                    readsThisPoll[0]++;
                }
            });
            int mostReads = 0;
            long multiReadPolls = 0;
            io.netty.channel.EventLoop loop = SoftPair.engineOf(p.b.qp).channel().eventLoop();
            Completion[] c = Completion.array(4);
            try {
                // how the reads fall depends on timing: up to 5 rounds of 256 Writes until a poll read on
                for (int round = 0; round < 5 && multiReadPolls == 0; round++) {
                    p.b.qp.postRecv(RecvWr.of(round, note.sge(0, 8)));
                    // B's event loop held in a task meanwhile: the stream's reads are all this thread's polls (a free
                    // loop, woken by every arrival, may take them first, and did in a CI run)
                    java.util.concurrent.CountDownLatch release = SoftPair.holdLoop(loop);
                    Thread sender = new Thread(() -> {
                        Completion[] batch = Completion.array(64);
                        int posted = 0;
                        int done = 0;
                        while (done < writes + 1) {
                            if (posted < writes && posted - done < SoftPair.DEPTH / 2) {
                                p.a.qp.postSend(SendWr.rdmaWrite().id(posted++).local(src.sge(0, size))
                                        .remote(dst.stag(), 0).signaled());
                                if (posted == writes) { // the Send after the Writes: they are placed
                                    p.a.qp.postSend(SendWr.send().id(posted++).local(src.sge(0, 8)).signaled());
                                }
                            } else {
                                done += drain(p.a, batch);
                            }
                        }
                    }, "sender");
                    sender.setDaemon(true);
                    try {
                        sender.start();
                        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                        int n = 0;
                        while (n == 0 && System.nanoTime() < end) {
                            readsThisPoll[0] = 0;
                            n = p.b.cq.poll(c);
                            mostReads = Math.max(mostReads, readsThisPoll[0]);
                            multiReadPolls += readsThisPoll[0] > 1 ? 1 : 0;
                        }
                        assertEquals(1, n, "the Send after the Writes did not arrive");
                        assertEquals(CompletionStatus.SUCCESS, c[0].status());
                    } finally {
                        release.countDown();
                    }
                    sender.join(30_000);
                }
            } finally {
                InPlaceProbe.beforeRead(null);
            }
            byte[] dstBytes = new byte[size];
            dstMem.get(0, dstBytes);
            assertArrayEquals(srcBytes, dstBytes, "the Writes' bytes in place");
            long placed = p.b.dev.stats().counter("rxDirectBytes");
            System.out.println("ReceiveInPlaceTest: " + multiReadPolls + " polls read more than once, at most "
                    + mostReads + " reads in one; " + placed + " bytes placed from the socket");
            assertEquals(0, p.b.dev.stats().counter("crcErrors"));
            assertTrue(multiReadPolls > 0, "no poll read on after a full read");
            assertTrue(mostReads <= 8, "a poll made " + mostReads + " reads: more than a turn's 8");
        }
    }

    /**
     * 64 MiB of Writes and Sends while the receiver spins on its CQ: its reads race the event loop's for every
     * chunk of the stream; a byte taken out of order would tear an FPDU (a CRC error and a Terminate) or land in
     * the wrong place.
     */
    @Test
    void readsInPlaceAndOnTheLoopKeepTheStreamInOrder() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        int chunk = 16 * 1024;
        int chunks = 64;
        int rounds = 64;
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] srcBytes = new byte[chunk * chunks];
            new Random(11).nextBytes(srcBytes);
            MemoryRegion src = p.a.pd.register(srcBytes, Access.LOCAL_WRITE);
            byte[] dstBytes = new byte[chunk * chunks];
            MemoryRegion dst = p.b.pd.register(dstBytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            byte[] sendBytes = new byte[rounds * chunk];
            MemoryRegion sends = p.b.pd.register(sendBytes, Access.LOCAL_WRITE);
            for (int r = 0; r < rounds; r++) {
                p.b.qp.postRecv(RecvWr.of(r, sends.sge(r * chunk, chunk)));
            }
            AtomicReference<Throwable> failed = new AtomicReference<>();
            int[] received = new int[1];
            Thread poller = new Thread(() -> {
                try {
                    Completion[] c = Completion.array(16);
                    while (received[0] < rounds) {
                        int n = spin(p.b, c);
                        for (int i = 0; i < n; i++) {
                            assertEquals(CompletionStatus.SUCCESS, c[i].status(), "receive " + c[i].id());
                            assertEquals(chunk, c[i].byteLength());
                            received[0]++;
                        }
                    }
                } catch (Throwable t) {
                    failed.set(t);
                }
            }, "poller");
            poller.setDaemon(true);
            poller.start();
            int posted = 0;
            int done = 0;
            Completion[] batch = Completion.array(64);
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < chunks; k++) {
                    while (posted - done >= SoftPair.DEPTH / 2) {
                        done += drain(p.a, batch);
                    }
                    p.a.qp.postSend(SendWr.rdmaWrite().id(posted++).local(src.sge(k * chunk, chunk))
                            .remote(dst.stag(), (long) k * chunk).signaled());
                }
                // a Send after each round's Writes: placed in the receive the round number names
                p.a.qp.postSend(SendWr.send().id(posted++).local(src.sge(r * 7, chunk)).signaled());
            }
            while (done < posted) {
                done += drain(p.a, batch);
            }
            poller.join(30_000);
            assertEquals(null, failed.get());
            assertEquals(rounds, received[0]);
            assertArrayEquals(srcBytes, dstBytes, "every Write's bytes in place");
            for (int r = 0; r < rounds; r++) {
                assertArrayEquals(Arrays.copyOfRange(srcBytes, r * 7, r * 7 + chunk),
                        Arrays.copyOfRange(sendBytes, r * chunk, (r + 1) * chunk), "send " + r);
            }
            long inPlace = p.b.dev.stats().counter("rxInPlaceBytes");
            long all = p.b.dev.stats().counter("rxBytes");
            System.out.println("ReceiveInPlaceTest: " + inPlace + " of " + all + " bytes read in place, "
                    + p.b.dev.stats().counter("rxInPlace") + " reads");
            assertEquals(0, p.b.dev.stats().counter("crcErrors"));
            assertEquals(0, p.b.dev.stats().counter("terminatesSent"));
            assertTrue(inPlace > 0, "the spinning receiver never read in place");
            assertTrue(inPlace < all, "the event loop never read: the race this test is for did not happen");
        }
    }

    /**
     * Connects {@code p} and exchanges 10 SEND round trips of {@link #SIZE} octets (RTS, first FPDUs exchanged: A may
     * read in place); A's buffer.
     */
    static MemoryRegion pastFirstFpdus(SoftPair p, Completion[] c) throws Exception {
        p.connB();
        MemoryRegion aBuf = p.a.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
        MemoryRegion bBuf = p.b.pd.register(new byte[SIZE], Access.LOCAL_WRITE);
        pingPong(p, 10, aBuf, bBuf, c);
        return aBuf;
    }
}
