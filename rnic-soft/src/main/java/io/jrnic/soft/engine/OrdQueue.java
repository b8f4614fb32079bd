package io.jrnic.soft.engine;

/**
 * The ORQ: Read and Atomic Requests sent whose responses are awaited, in order (RFC 5040 section 5.3: responses
 * come back in request order), a preallocated ring within ORD (as siw's orq). The Transmitter adds, the Receiver
 * retires; both act for the QP's owner, which holds this ring.
 */
final class OrdQueue {
    private final SqEntry[] ring;
    private int head;
    private int size;

    OrdQueue(int capacity) {
        this.ring = new SqEntry[Math.max(1, capacity)];
    }

    void add(SqEntry e) {
        if (size == ring.length) {
            throw new IllegalStateException("ORQ over its capacity " + ring.length);
        }
        ring[(head + size++) % ring.length] = e;
    }

    /** The oldest outstanding request, or null. */
    SqEntry oldest() {
        return size == 0 ? null : ring[head];
    }

    /** Its response arrived (or it failed). */
    void retireOldest() {
        if (size > 0) {
            ring[head] = null;
            head = (head + 1) % ring.length;
            size--;
        }
    }

    void clear() {
        while (size > 0) {
            retireOldest();
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }
}
