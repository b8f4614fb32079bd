package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

/** The gate between the event loop's socket reads and a polling thread's (receive in place). */
class LoopReadGateTest {
    private final LoopReadGate gate = new LoopReadGate();
    private final RecvByteBufAllocator.Handle loop = gate.newHandle();

    private ByteBuf announce() {
        return loop.allocate(UnpooledByteBufAllocator.DEFAULT);
    }

    @Test
    void anUnattachedGateAnnouncesNothing() {
        ByteBuf b = announce();
        try {
            assertTrue(gate.quiet(), "no QP receives in place: the loop's reads need no announcement");
        } finally {
            b.release();
        }
    }

    @Test
    void aLoopReadClosesTheGateUntilItsBytesAreFed() {
        gate.attach(new ReentrantLock());
        ByteBuf b = announce();
        try {
            assertFalse(gate.quiet(), "the loop is about to read: nobody else may");
            loop.lastBytesRead(100);
            assertFalse(gate.quiet(), "read but not yet fed: a polling read now would overtake these bytes");
            gate.fed();
            assertTrue(gate.quiet());
            loop.readComplete();
            assertTrue(gate.quiet());
        } finally {
            b.release();
        }
    }

    @Test
    void aBoundStreamsLoopReadsReuseTheThreadsBufferOnceTheReceiverReleasedIt() {
        ByteBuf handshake = announce();
        ByteBuf handshake2 = announce();
        assertNotSame(handshake, handshake2, "no QP bound (the MPA set-up): a fresh buffer per read");
        handshake.release();
        handshake2.release();

        gate.attach(new ReentrantLock());
        ByteBuf first = announce();
        assertEquals(LoopReadGate.RECV_MAX, first.writableBytes(), "the whole buffer, empty");
        first.writeInt(7);
        gate.fed();
        first.release(); // as the Receiver does after feeding it
        ByteBuf second = announce();
        gate.fed();
        assertSame(first, second, "the thread's buffer again");
        assertEquals(0, second.readableBytes(), "cleared: nothing of the last read is fed twice");
        ByteBuf third = announce(); // the second is still held
        gate.fed();
        assertNotSame(second, third, "a buffer still held is never lent twice");
        third.release();
        second.release();
        assertEquals(1, second.refCnt(), "the thread keeps its own reference");
    }

    @Test
    void anEmptyLoopReadReopensTheGateAtOnce() {
        gate.attach(new ReentrantLock());
        ByteBuf b = announce();
        b.release();
        loop.lastBytesRead(0);
        assertTrue(gate.quiet());
    }

    @Test
    void theEndOfTheStreamOrAFailedReadClosesTheGateForGood() {
        gate.attach(new ReentrantLock());
        announce().release();
        loop.lastBytesRead(-1);
        assertFalse(gate.quiet(), "end of stream: only the loop reads (and reports) it");

        LoopReadGate g2 = new LoopReadGate();
        RecvByteBufAllocator.Handle h2 = g2.newHandle();
        g2.attach(new ReentrantLock());
        h2.allocate(UnpooledByteBufAllocator.DEFAULT).release();
        h2.readComplete(); // the read threw: lastBytesRead never came
        assertFalse(g2.quiet(), "a failed read: the loop closes the stream");
    }

    @Test
    void theLoopWaitsForAPollingThreadThatHoldsTheLock() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        gate.attach(lock);
        lock.lock();
        Thread t = new Thread(() -> announce().release());
        try {
            t.start();
            t.join(200);
            assertTrue(t.isAlive(), "the loop announced a read while a polling thread held the lock");
            assertTrue(gate.quiet());
        } finally {
            lock.unlock();
        }
        t.join(10_000);
        assertFalse(t.isAlive());
        assertFalse(gate.quiet());
    }
}
