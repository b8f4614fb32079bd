package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * A small ring of reused outbound buffers, so that the transmit path allocates nothing once warm (and a
 * buffer's NIO view, used for the CRC, is made once): the ring keeps one reference to each buffer, a
 * write to the channel takes a second, which the channel releases once the bytes left; a buffer whose
 * only reference is the ring's is free again. Filled lazily (an idle QP holds none); when every buffer
 * is still in flight a one-off buffer is taken from the allocator. Event loop only.
 */
final class OutboundBuffers {
    private final ByteBufAllocator alloc;
    private final ByteBuf[] ring;
    private final int capacity;
    private int next;

    OutboundBuffers(ByteBufAllocator alloc, int slots, int capacity) {
        this.alloc = alloc;
        this.ring = new ByteBuf[slots];
        this.capacity = capacity;
    }

    /** An empty buffer with one reference for the caller to hand to the channel (or release). */
    ByteBuf take() {
        for (int i = 0; i < ring.length; i++) {
            int k = next;
            next = next + 1 == ring.length ? 0 : next + 1;
            ByteBuf b = ring[k];
            if (b == null) {
                b = alloc.ioBuffer(capacity);
                ring[k] = b;
                return b.retain();
            }
            if (b.refCnt() == 1) {
                if (b.capacity() > 4 * capacity) {
                    // grown by a burst of larger content: give the memory back rather than keep it per QP
                    b.release();
                    b = alloc.ioBuffer(capacity);
                    ring[k] = b;
                }
                return b.clear().retain();
            }
        }
        return alloc.ioBuffer(capacity);
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
