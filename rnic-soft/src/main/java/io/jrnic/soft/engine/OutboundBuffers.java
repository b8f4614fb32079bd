package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A ring of reused outbound buffers, so that the transmit path allocates nothing once warm (and a buffer's NIO view,
 * used for the CRC, is made once): the ring keeps one reference to each buffer, a write to the channel takes a second,
 * which the channel releases once the bytes left; a buffer whose only reference is the ring's is free again. Filled
 * lazily (an idle QP holds none).
 *
 * <p>Buffers are handed out in ring order and the channel releases its writes in order, so the slot after the last one
 * taken holds the oldest buffer: when that one is still in flight, all are. The ring then doubles (keeping that order:
 * the oldest is reused first once the new slots are used), up to {@code maxSlots}; a full ring at its most is
 * scanned for a buffer freed out of order, else a one-off buffer is taken from the allocator. So a stream whose
 * outbound buffer holds more FPDUs than the first slots (the channel's high water mark in FPDUs of 8,948 octets at
 * MTU 9000 is about 120, one head/tail buffer each) stops allocating once the ring has grown to that. Event loop
 * only (or the QP's lock holder).
 */
final class OutboundBuffers {
    private final ByteBufAllocator alloc;
    private final int maxSlots;
    private final int capacity;
    private ByteBuf[] ring;
    private int next;

    OutboundBuffers(ByteBufAllocator alloc, int slots, int capacity) {
        this(alloc, slots, slots, capacity);
    }

    /** A ring of {@code slots} that may grow to {@code maxSlots} while every buffer is in flight. */
    OutboundBuffers(ByteBufAllocator alloc, int slots, int maxSlots, int capacity) {
        if (slots < 1 || maxSlots < slots) {
            throw new IllegalArgumentException("slots " + slots + ", at most " + maxSlots);
        }
        this.alloc = alloc;
        this.ring = new ByteBuf[slots];
        this.maxSlots = maxSlots;
        this.capacity = capacity;
    }

    /** An empty buffer with one reference for the caller to hand to the channel (or release). */
    ByteBuf take() {
        ByteBuf oldest = ring[next];
        if (oldest == null || oldest.refCnt() == 1) {
            return takeAt(next);
        }
        if (ring.length < maxSlots) { // every buffer in flight: grow, and take the first new slot
            grow();
            return takeAt(next);
        }
        for (int i = 1; i < ring.length; i++) { // at its most: a buffer freed out of order, if any
            int k = (next + i) % ring.length;
            if (ring[k] == null || ring[k].refCnt() == 1) {
                return takeAt(k);
            }
        }
        return alloc.ioBuffer(capacity);
    }

    private ByteBuf takeAt(int k) {
        next = k + 1 == ring.length ? 0 : k + 1;
        ByteBuf b = ring[k];
        if (b == null) {
            return (ring[k] = alloc.ioBuffer(capacity)).retain();
        }
        if (b.capacity() > 4 * capacity) {
            // grown by a burst of larger content: give the memory back rather than keep it per QP
            b.release();
            return (ring[k] = alloc.ioBuffer(capacity)).retain();
        }
        return b.clear().retain();
    }

    /** Doubles the ring (capped), oldest first: the new slots come next, then the old ones in the order taken. */
    private void grow() {
        int n = ring.length;
        ByteBuf[] r = new ByteBuf[Math.min(maxSlots, 2 * n)];
        for (int i = 0; i < n; i++) {
            r[i] = ring[(next + i) % n];
        }
        ring = r;
        next = n;
    }

    /** Slots the ring has now (tests, stats). */
    int slots() {
        return ring.length;
    }

    /** Drops the ring's references (the stream closed); buffers still in flight are freed by the channel. */
    void release() {
        for (int i = 0; i < ring.length; i++) {
            if (ring[i] != null) {
                ring[i].release();
                ring[i] = null;
            }
        }
    }
}
