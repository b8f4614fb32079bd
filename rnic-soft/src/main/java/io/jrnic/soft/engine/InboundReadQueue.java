package io.jrnic.soft.engine;

import io.jrnic.soft.mem.SoftRegion;

/**
 * The inbound Read/Atomic queue (IRQ): Read Requests (RFC 5040 section 5.2.2) and Atomic Requests (RFC 7306
 * section 8.1) accepted within IRD, answered in arrival order. A ring of reused {@link ReadJob} slots that grows
 * to the depth the peer actually uses (at most IRD; an idle QP holds two slots), so that accepting a Request
 * allocates nothing once warm. Under the QP's lock.
 */
final class InboundReadQueue {
    private ReadJob[] ring = {new ReadJob(), new ReadJob()};
    private int head;
    private int size;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The oldest Request not yet answered, or null. */
    ReadJob peek() {
        return size == 0 ? null : ring[head];
    }

    ReadJob addRead(SoftRegion source, long sourceOffset, long length, int sinkStag, long sinkTo) {
        return next().read(source, sourceOffset, length, sinkStag, sinkTo);
    }

    ReadJob addAtomicResponse(int requestId, long originalValue) {
        return next().atomicResponse(requestId, originalValue);
    }

    /** The oldest Request was answered. */
    void poll() {
        if (size > 0) {
            ring[head].clear();
            head = (head + 1) % ring.length;
            size--;
        }
    }

    void clear() {
        while (size > 0) {
            poll();
        }
    }

    private ReadJob next() {
        if (size == ring.length) {
            ReadJob[] bigger = new ReadJob[ring.length * 2];
            for (int i = 0; i < ring.length; i++) {
                bigger[i] = ring[(head + i) % ring.length];
            }
            for (int i = ring.length; i < bigger.length; i++) {
                bigger[i] = new ReadJob();
            }
            ring = bigger;
            head = 0;
        }
        ReadJob j = ring[(head + size) % ring.length];
        size++;
        return j;
    }
}
