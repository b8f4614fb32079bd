package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The outbound buffer rings: buffers handed out in order and released in order (as the channel releases its writes)
 * are reused, and a ring whose buffers are all in flight grows instead of allocating a one-off buffer per take.
 */
class OutboundBuffersTest {
    /** Counts the buffers it makes. */
    static final class CountingAllocator extends AbstractByteBufAllocator {
        int made;

        CountingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            made++;
            return Unpooled.directBuffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            made++;
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    private final CountingAllocator alloc = new CountingAllocator();
    private final ArrayDeque<ByteBuf> inFlight = new ArrayDeque<>();
    private OutboundBuffers ring;

    @AfterEach
    void releaseAll() {
        inFlight.forEach(ByteBuf::release);
        if (ring != null) {
            ring.release();
        }
    }

    /** The channel's steady state: {@code depth} writes in flight, each released in order as a new one goes out. */
    private int steadyState(int depth, int takes) {
        for (int i = 0; i < takes; i++) {
            inFlight.add(ring.take());
            if (inFlight.size() > depth) {
                inFlight.poll().release();
            }
        }
        return alloc.made;
    }

    @Test
    void moreWritesInFlightThanSlotsGrowTheRingAndThenAllocateNothing() {
        ring = new OutboundBuffers(alloc, 4, 64, 256);
        int warm = steadyState(40, 200); // 40 in flight, as a stream at MTU 9000 holds FPDU heads
        assertEquals(64, ring.slots(), "the ring doubled past 40 slots");
        int after = steadyState(40, 2_000);
        assertEquals(warm, after, "no buffer made once the ring had grown");
    }

    @Test
    void aRingAtItsMostTakesOneOffBuffersWithoutGrowing() {
        ring = new OutboundBuffers(alloc, 4, 8, 256);
        steadyState(20, 100);
        assertEquals(8, ring.slots());
        int before = alloc.made;
        steadyState(20, 100);
        assertEquals(8, ring.slots(), "no growth past its most");
        assertTrue(alloc.made - before >= 20, "takes the ring could not serve were one-offs: " + (alloc.made - before));
    }

    @Test
    void afterGrowingTheOldestBufferIsReusedFirst() {
        ring = new OutboundBuffers(alloc, 2, 8, 64);
        ByteBuf a = ring.take();
        ByteBuf b = ring.take();
        ByteBuf c = ring.take(); // both in flight: the ring grows to 4
        ByteBuf d = ring.take();
        a.release();
        b.release();
        c.release();
        d.release();
        assertEquals(4, ring.slots());
        assertSame(a, ring.take(), "the oldest first");
        assertSame(b, ring.take());
        assertSame(c, ring.take());
        assertSame(d, ring.take());
        inFlight.add(a);
        inFlight.add(b);
        inFlight.add(c);
        inFlight.add(d);
    }

    @Test
    void aFixedRingStillFindsABufferFreedOutOfOrder() {
        ring = new OutboundBuffers(alloc, 3, 256);
        ByteBuf a = ring.take();
        ByteBuf b = ring.take();
        ByteBuf c = ring.take();
        b.release(); // a and c still in flight; next is a's slot
        int before = alloc.made;
        assertSame(b, ring.take());
        assertEquals(before, alloc.made);
        inFlight.add(a);
        inFlight.add(b);
        inFlight.add(c);
    }

    @Test
    void aRingCannotBeSmallerThanOneSlotOrItsStart() {
        assertThrows(IllegalArgumentException.class, () -> new OutboundBuffers(alloc, 0, 256));
        assertThrows(IllegalArgumentException.class, () -> new OutboundBuffers(alloc, 4, 2, 256));
    }
}
