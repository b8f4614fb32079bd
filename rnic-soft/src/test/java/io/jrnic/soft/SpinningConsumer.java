package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: a consumer that spins on its CQ instead of blocking, so that each empty poll lets the QP receive in
 * place (CompletionQueue.poll/progress): until something arrives, once, for a while on an empty CQ, or through SEND
 * round trips over a {@link SoftPair}.
 */
final class SpinningConsumer {
    private SpinningConsumer() {
    }

    /** Polls {@code s}'s CQ (empty: nothing was sent) for {@code millis}. */
    static void spinPolls(SoftPair.Side s, Completion[] c, long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < end) {
            assertEquals(0, s.cq.poll(c));
        }
    }

    /** {@code n} round trips of a SEND the size of the buffers: A sends, B echoes, both spinning on their CQs. */
    static void pingPong(SoftPair p, int n, MemoryRegion aBuf, MemoryRegion bBuf, Completion[] c) {
        for (int i = 0; i < n; i++) {
            p.a.qp.postRecv(RecvWr.of(i, aBuf.sge(0, aBuf.length())));
            p.b.qp.postRecv(RecvWr.of(i, bBuf.sge(0, bBuf.length())));
            p.a.qp.postSend(SendWr.send().id(i).local(aBuf.sge(0, aBuf.length())));
            awaitRecv(p.b, c);
            p.b.qp.postSend(SendWr.send().id(i).local(bBuf.sge(0, bBuf.length())));
            awaitRecv(p.a, c);
        }
    }

    /** Spins on {@code s}'s CQ until a receive completes (sends are unsignaled). */
    static void awaitRecv(SoftPair.Side s, Completion[] c) {
        int n = spin(s, c);
        assertEquals(1, n);
        assertEquals(CompletionStatus.SUCCESS, c[0].status());
        assertEquals(io.jrnic.verbs.CompletionOpcode.RECV, c[0].opcode());
    }

    /** Polls until something arrives (each empty poll lets the QP receive in place); gives up after 30 s. */
    static int spin(SoftPair.Side s, Completion[] into) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        int n;
        while ((n = s.cq.poll(into)) == 0) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("nothing arrived for 30 s");
            }
            Thread.onSpinWait();
        }
        return n;
    }

    /** One poll: every completion it took succeeded; an empty poll spins once. Returns how many it took. */
    static int drain(SoftPair.Side s, Completion[] batch) {
        int n = s.cq.poll(batch);
        for (int i = 0; i < n; i++) {
            assertEquals(CompletionStatus.SUCCESS, batch[i].status(), "send " + batch[i].id());
        }
        if (n == 0) {
            Thread.onSpinWait();
        }
        return n;
    }
}
