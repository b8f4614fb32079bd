package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The transfer of ownership (spec-notes/engine.md), seen by its outcome: with the QP's event loop held busy by
 * another task, a polling thread still receives what arrives and a posting thread still sends, because each takes the
 * QP's ownership when it is free and does the work itself. The event loop cannot have done it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InPlaceOwnershipTest {
    private static final int SIZE = 64;

    /** Polls {@code side}'s CQ for one completion for up to 10 s (the loop is still held then), else fails. */
    private static Completion pollWhileHeld(SoftPair.Side side) {
        Completion[] c = Completion.array(1);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < end) {
            if (side.cq.poll(c) == 1) {
                return c[0].snapshot();
            }
        }
        throw new AssertionError("nothing completed on " + side.qp.context() + " while its peer's or its own loop was held");
    }

    @Test
    void aPollerReceivesWhileTheEventLoopIsHeldBusy() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "receive in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] got = new byte[SIZE];
            MemoryRegion dst = p.b.pd.register(got, Access.LOCAL_WRITE);
            byte[] sent = new byte[SIZE];
            Arrays.fill(sent, (byte) 0x5a);
            MemoryRegion src = p.a.pd.register(sent, Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, dst.sge()));
            p.a.qp.postSend(SendWr.send().id(1).local(src.sge()));
            p.b.awaitOne(); // the first FPDUs exchanged: B's pollers may read in place from now on
            p.b.qp.postRecv(RecvWr.of(2, dst.sge()));
            CountDownLatch release = SoftPair.holdLoop(SoftPair.engineOf(p.b.qp).channel().eventLoop());
            try {
                p.a.qp.postSend(SendWr.send().id(2).local(src.sge()));
                Completion c = pollWhileHeld(p.b); // only an in-place read can find the message
                assertEquals(CompletionOpcode.RECV, c.opcode());
                assertEquals(CompletionStatus.SUCCESS, c.status());
                assertEquals(2, c.id());
                assertArrayEquals(sent, got);
            } finally {
                release.countDown();
            }
        }
    }

    @Test
    void aPosterTransmitsWhileTheEventLoopIsHeldBusy() throws Exception {
        Assumptions.assumeTrue(Epoll.isAvailable(), "transmit in place needs the epoll transport");
        try (SoftPair p = new SoftPair()) {
            p.connB();
            byte[] got = new byte[SIZE];
            MemoryRegion dst = p.b.pd.register(got, Access.LOCAL_WRITE);
            byte[] sent = new byte[SIZE];
            Arrays.fill(sent, (byte) 0x33);
            MemoryRegion src = p.a.pd.register(sent, Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, dst.sge()));
            p.b.qp.postRecv(RecvWr.of(2, dst.sge()));
            p.a.qp.postSend(SendWr.send().id(1).local(src.sge()).signaled());
            p.a.awaitOne();
            p.b.awaitOne();
            CountDownLatch release = SoftPair.holdLoop(SoftPair.engineOf(p.a.qp).channel().eventLoop());
            try {
                p.a.qp.postSend(SendWr.send().id(2).local(src.sge()).signaled());
                Completion c = pollWhileHeld(p.b); // B's loop is free: the message left A without A's loop
                assertEquals(2, c.id());
                assertEquals(CompletionStatus.SUCCESS, c.status());
                assertArrayEquals(sent, got);
                Completion s = pollWhileHeld(p.a); // a copied Send completes when written, by the poster
                assertEquals(CompletionOpcode.SEND, s.opcode());
                assertEquals(2, s.id());
            } finally {
                release.countDown();
            }
        }
    }
}
