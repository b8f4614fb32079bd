package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Zero-copy transmit in place ({@code InPlaceGather}): a posting thread that writes into the socket itself sends the
 * payload segments of registered direct memory as they lie, in one gathering write with the headers and CRCs between
 * them; what the socket does not take is copied into the hand-over before the post returns, so the WR completes as a
 * copied one and the stream stays in order. Every byte is checked at the target.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InPlaceGatherTest {
    private static final int SIZE = 192 * 1024;

    /** An idle QP, one 192 KiB WRITE at a time: gathered in place, completed, every byte at its place. */
    @Test
    void aPostingThreadSendsDirectMemoryZeroCopyInPlace() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            ByteBuffer src = ByteBuffer.allocateDirect(SIZE);
            ByteBuffer dst = ByteBuffer.allocateDirect(SIZE);
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            Random rnd = new Random(21);
            Completion[] c = Completion.array(1);
            for (int i = 0; i < 10; i++) {
                byte[] bytes = new byte[SIZE];
                rnd.nextBytes(bytes);
                src.clear();
                src.put(bytes);
                p.a.qp.postSend(SendWr.rdmaWrite().id(i).local(s.sge(0, SIZE)).remote(d.stag(), 0).signaled());
                assertEquals(1, p.a.cq.take(c, Duration.ofSeconds(20)));
                assertEquals(CompletionStatus.SUCCESS, c[0].status());
                awaitBytes(dst, bytes, "write " + i);
            }
            long gathered = p.a.dev.stats().counter("txInPlaceGatheredBytes");
            System.out.println("InPlaceGatherTest: " + gathered + " payload octets gathered in place of " + 10L * SIZE);
            assertTrue(gathered >= 5L * SIZE, "posts to an idle QP gathered only " + gathered + " octets in place");
        }
    }

    /**
     * With the target's event loop held busy, nothing is read at B, so A's socket fills: a gathered write is cut, and
     * its rest (headers and registered memory alike) is copied into the hand-over before the WR completes. Each WR has
     * a source of its own, scribbled over as soon as it completes: a hand-over still pointing into it would carry the
     * scribbles to the target.
     */
    @Test
    void whatTheSocketDoesNotTakeIsCopiedBeforeTheWorkRequestCompletes() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        int n = 48;
        try (SoftPair p = new SoftPair()) {
            p.connB();
            ByteBuffer dst = ByteBuffer.allocateDirect(n * SIZE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            ByteBuffer[] src = new ByteBuffer[n];
            byte[] expected = new byte[n * SIZE];
            Completion[] c = Completion.array(16);
            int completed = 0;
            java.util.concurrent.CountDownLatch release = SoftPair.holdLoop(SoftPair.engineOf(p.b.qp).channel().eventLoop());
            try {
                for (int i = 0; i < n; i++) {
                    src[i] = ByteBuffer.allocateDirect(SIZE);
                    for (int k = 0; k < SIZE; k++) {
                        src[i].put(k, (byte) (i + 1));
                    }
                    java.util.Arrays.fill(expected, i * SIZE, (i + 1) * SIZE, (byte) (i + 1));
                    MemoryRegion s = p.a.pd.register(src[i], Access.LOCAL_WRITE);
                    p.a.qp.postSend(SendWr.rdmaWrite().id(i).local(s.sge(0, SIZE)).remote(d.stag(), (long) i * SIZE)
                            .signaled());
                    completed += scribbleCompleted(p, c, src);
                }
            } finally {
                release.countDown();
            }
            while (completed < n) {
                int k = p.a.cq.take(c, Duration.ofSeconds(20));
                assertTrue(k > 0, "writes still outstanding");
                for (int j = 0; j < k; j++) {
                    assertEquals(CompletionStatus.SUCCESS, c[j].status());
                    scribble(src[(int) c[j].id()]);
                }
                completed += k;
            }
            awaitBytes(dst, expected, "the burst");
            long gathered = p.a.dev.stats().counter("txInPlaceGatheredBytes");
            long handovers = p.a.dev.stats().counter("txInPlaceHandovers");
            System.out.println("InPlaceGatherTest: " + gathered + " octets gathered, " + handovers + " hand-overs");
            assertTrue(gathered > 0, "nothing was gathered in place");
            assertTrue(handovers > 0, "the socket never filled under a gathered write");
        }
    }

    /** Polls A's completions so far, scribbling over each completed WR's source; how many. */
    private static int scribbleCompleted(SoftPair p, Completion[] c, ByteBuffer[] src) {
        int k = p.a.cq.poll(c);
        for (int j = 0; j < k; j++) {
            assertEquals(CompletionStatus.SUCCESS, c[j].status());
            scribble(src[(int) c[j].id()]);
        }
        return k;
    }

    private static void scribble(ByteBuffer b) {
        for (int k = 0; k < b.capacity(); k += 512) {
            b.put(k, (byte) 0xEE);
        }
    }

    /** Waits (bounded by the test's timeout) until {@code dst} holds {@code expected}: the target has no completion. */
    private static void awaitBytes(ByteBuffer dst, byte[] expected, String what) throws InterruptedException {
        byte[] got = new byte[expected.length];
        while (true) {
            dst.duplicate().clear().get(got);
            if (java.util.Arrays.equals(expected, got)) {
                return;
            }
            Thread.sleep(1);
        }
    }
}
