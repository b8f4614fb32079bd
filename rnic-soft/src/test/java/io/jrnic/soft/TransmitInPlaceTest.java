package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.fault.FaultPlan;
import io.jrnic.interop.fault.FaultProxy;
import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * Transmit in place: a post to an idle QP is encoded and written into the socket by the posting thread (no
 * event-loop wake-up); when the socket does not take it all, the rest is handed to the event loop, which writes
 * it before anything else, so the stream stays in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransmitInPlaceTest {
    private static final int MSGS = 200;
    private static final int SIZE = 64;

    @Test
    void postsToAnIdleQpAreWrittenByThePostingThread() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] dstBytes = new byte[MSGS * SIZE];
            MemoryRegion dst = p.b.pd.register(dstBytes, Access.LOCAL_WRITE);
            for (int i = 0; i < MSGS; i++) {
                p.b.qp.postRecv(RecvWr.of(i, dst.sge(i * SIZE, SIZE)));
            }
            byte[] srcBytes = new byte[SIZE];
            MemoryRegion src = p.a.pd.register(srcBytes, Access.LOCAL_WRITE);
            byte[] expected = new byte[MSGS * SIZE];
            long before = p.a.dev.stats().counter("txInPlace");
            for (int i = 0; i < MSGS; i++) {
                java.util.Arrays.fill(srcBytes, (byte) i);
                java.util.Arrays.fill(expected, i * SIZE, (i + 1) * SIZE, (byte) i);
                p.a.qp.postSend(SendWr.send().id(i).local(src.sge(0, SIZE)).signaled());
                Completion c = p.a.awaitOne(); // the buffer is reused: wait for each send
                assertEquals(CompletionStatus.SUCCESS, c.status());
            }
            assertEquals(MSGS, p.b.await(MSGS).stream().filter(Completion::isOk).count());
            assertArrayEquals(expected, dstBytes, "every message in its receive, in order");
            long inPlace = p.a.dev.stats().counter("txInPlace") - before;
            System.out.println("TransmitInPlaceTest: " + inPlace + " of " + MSGS + " idle posts written in place");
            // the loop takes a post only when it runs the QP at that moment (it has nothing else to do here)
            assertTrue(inPlace >= MSGS / 2, inPlace + " of " + MSGS + " posts to an idle QP written in place");
        }
    }

    /**
     * A message of several 64 KiB batches to an idle QP: the posting thread writes the batches one after the other
     * (up to four) instead of leaving all but the first to the event loop. Before, a post made at most one in-place
     * write; here 20 posts of 192 KiB make more than 20 (each waits for its completion, so the QP is idle).
     */
    @Test
    void aMessageOfSeveralBatchesIsWrittenInPlaceBatchByBatch() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        int posts = 20;
        int size = 192 * 1024;
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] dstBytes = new byte[size];
            MemoryRegion dst = p.b.pd.register(dstBytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            byte[] srcBytes = new byte[size];
            MemoryRegion src = p.a.pd.register(srcBytes, Access.LOCAL_WRITE);
            java.util.Random rnd = new java.util.Random(5);
            long before = p.a.dev.stats().counter("txInPlace");
            long handoversBefore = p.a.dev.stats().counter("txInPlaceHandovers");
            for (int i = 0; i < posts; i++) {
                rnd.nextBytes(srcBytes);
                p.a.qp.postSend(SendWr.rdmaWrite().id(i).local(src.sge(0, size)).remote(dst.advertise(), 0)
                        .signaled());
                Completion c = p.a.awaitOne();
                assertEquals(CompletionStatus.SUCCESS, c.status());
                // a Send behind the Write tells B that the Write's bytes are placed (RDMAP ordering)
                MemoryRegion flag = p.b.pd.register(new byte[1], Access.LOCAL_WRITE);
                p.b.qp.postRecv(RecvWr.of(i, flag.sge()));
                p.a.qp.postSend(SendWr.send().id(1000 + i).local(src.sge(0, 1)).signaled());
                assertEquals(CompletionStatus.SUCCESS, p.a.awaitOne().status());
                assertEquals(CompletionStatus.SUCCESS, p.b.awaitOne().status());
                assertArrayEquals(srcBytes, dstBytes, "write " + i);
            }
            long inPlace = p.a.dev.stats().counter("txInPlace") - before;
            long handovers = p.a.dev.stats().counter("txInPlaceHandovers") - handoversBefore;
            System.out.println("TransmitInPlaceTest: " + posts + " posts of 192 KiB (and " + posts + " one-byte Sends): "
                    + inPlace + " in-place writes, " + handovers + " handed over");
            assertTrue(inPlace > 2L * posts, inPlace + " in-place writes for " + 2 * posts
                    + " posts: the multi-batch messages never went out batch by batch");
        }
    }

    /**
     * A peer that stops reading for a while (the proxy stalls for 3 s after 256 KiB, while A's loop is held so that the poster alone writes): posts written in place
     * fill the socket, the rest of the last one is handed to the event loop, later posts queue behind it; after the
     * stall every Write completes, the bytes land where they belong, and no FPDU was torn or reordered (that would
     * be a CRC error and a Terminate). Each source chunk is overwritten as soon as its Write completes: a Write that
     * completed before its payload left (in the socket, or copied into the hand-over) would put those octets on
     * the wire instead. With direct memory the posting thread's writes gather the payloads from the registered
     * memory ({@code txInPlaceGatheredBytes}); with heap memory they are copied into its batches.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap", "direct"})
    void aFullSocketHandsTheRestToTheEventLoopAndTheStreamStaysInOrder(String kind) throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        int chunk = 4096;
        int chunks = 256;
        int rounds = 24; // 24 MiB in all: more than the loopback socket buffers hold
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            ByteBuffer srcBuf = kind.equals("direct") ? ByteBuffer.allocateDirect(chunk * chunks)
                    : ByteBuffer.allocate(chunk * chunks);
            MemoryRegion src = kind.equals("direct") ? a.pd.register(srcBuf, Access.LOCAL_WRITE)
                    : a.pd.register(srcBuf.array(), Access.LOCAL_WRITE);
            // every Write lands in its own place, so that any octet sent after its Write completed shows
            byte[] expected = new byte[rounds * chunks * chunk];
            byte[] dstBytes = new byte[rounds * chunks * chunk];
            MemoryRegion dst = b.pd.register(dstBytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion fin = b.pd.register(new byte[16], Access.LOCAL_WRITE);
            b.qp.postRecv(RecvWr.of(-1, fin.sge(0, 16)));
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, AcceptOptions.defaults()));
            try (FaultProxy proxy = FaultProxy.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    l.localAddress(), FaultPlan.of(1).withStall(256 << 10, 3000))) {
                a.cm.connect(proxy.address(), a.qp, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
                int posted = 0;
                int done = 0;
                Completion[] batch = Completion.array(64);
                // A's loop is held until the first hand-over: until then only the poster writes (in place), so the
                // stalled socket refuses one of its writes whatever else the machine is doing
                java.util.concurrent.CountDownLatch release =
                        SoftPair.holdLoop(SoftPair.engineOf(a.qp).channel().eventLoop());
                long holdEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (posted < rounds * chunks) {
                    if (release.getCount() > 0 && (System.nanoTime() > holdEnd
                            || a.dev.stats().counter("txInPlaceHandovers") > 0)) {
                        release.countDown();
                    }
                    if (posted - done < chunks - 1) { // a chunk is posted again only once its last Write completed
                        int k = posted % chunks;
                        fill(srcBuf, k * chunk, chunk, posted);
                        a.qp.postSend(SendWr.rdmaWrite().id(posted).local(src.sge(k * chunk, chunk))
                                .remote(dst.stag(), (long) posted * chunk).signaled());
                        posted++;
                    } else {
                        Thread.sleep(1);
                    }
                    int n = a.cq.poll(batch, 0, 64);
                    for (int i = 0; i < n; i++) {
                        assertEquals(CompletionStatus.SUCCESS, batch[i].status(), "write " + batch[i].id());
                        done += poison(srcBuf, batch[i], chunk, chunks, expected);
                    }
                }
                release.countDown();
                for (Completion c : a.await(posted - done)) {
                    assertEquals(CompletionStatus.SUCCESS, c.status(), "write " + c.id());
                    poison(srcBuf, c, chunk, chunks, expected);
                }
                a.qp.postSend(SendWr.send().id(-1).local(src.sge(0, 16)).signaled()); // after the Writes (RFC 5040 5.5)
                assertEquals(CompletionStatus.SUCCESS, a.awaitOne().status());
                assertEquals(CompletionStatus.SUCCESS, b.awaitOne().status());
                assertArrayEquals(expected, dstBytes, "every Write's bytes as they were when it was posted");
                long inPlace = a.dev.stats().counter("txInPlace");
                long handovers = a.dev.stats().counter("txInPlaceHandovers");
                long gathered = a.dev.stats().counter("txInPlaceGatheredBytes");
                System.out.println("TransmitInPlaceTest (" + kind + "): " + inPlace + " in-place writes, " + handovers
                        + " handed over, " + gathered + " payload octets gathered, stalls "
                        + a.dev.stats().counter("backpressureStalls"));
                assertTrue(inPlace > 0, "no post was written in place");
                assertTrue(handovers > 0, "the stalled socket never refused an in-place write");
                if (kind.equals("direct")) {
                    assertTrue(gathered > 0, "no payload was written from the registered memory in place");
                } else {
                    assertEquals(0, gathered, "heap payloads are copied");
                }
                assertEquals(0, b.dev.stats().counter("crcErrors"));
                assertEquals(0, b.dev.stats().counter("terminatesSent"));
            }
        }
    }

    /** Chunk {@code k}'s octets for post {@code post}: every long names the post and its place. */
    private static void fill(ByteBuffer b, int at, int len, long post) {
        for (int i = 0; i < len; i += 8) {
            b.putLong(at + i, post << 32 | (at + i));
        }
    }

    /**
     * Write {@code c} completed: its chunk's octets are what the peer must hold at the Write's place; the chunk is
     * then overwritten at once (0xEE), as a consumer may. Returns 1 (one completion).
     */
    private static int poison(ByteBuffer b, Completion c, int chunk, int chunks, byte[] expected) {
        int at = (int) (c.id() % chunks) * chunk;
        b.get(at, expected, (int) c.id() * chunk, chunk);
        for (int i = 0; i < chunk; i++) {
            b.put(at + i, (byte) 0xEE);
        }
        return 1;
    }
}
