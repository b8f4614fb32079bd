package io.jrnic.soft.engine;

/**
 * The QP's send queue as the engine holds it: one preallocated ring of the WRs posted and not yet retired, in
 * posting order, with a cursor at the next one to start (as siw's sendq with its get/put indices). The entries
 * before the cursor are being sent or wait for retirement (RDMAC verbs: completions in posting order); the ones from
 * the cursor on wait to start. Sized by the QP's send depth: the verbs layer admits no more outstanding WRs. Owned
 * by the QP's owner (spec-notes/engine.md); no other thread touches it.
 */
final class SendQueue {
    /** A power of two at least the depth, so that a position's slot is a mask, not a 64-bit division. */
    private final SqEntry[] ring;
    private final int mask;
    private final int depth;
    /** Monotonic positions: oldest not retired, next to start, next free. */
    private long head;
    private long next;
    private long tail;

    SendQueue(int depth) {
        this.depth = Math.max(1, depth);
        int size = 1;
        while (size < this.depth) {
            size <<= 1;
        }
        this.ring = new SqEntry[size];
        this.mask = ring.length - 1;
    }

    /** A WR handed over by a poster (through the incoming queue). */
    void add(SqEntry e) {
        if (tail - head == depth) {
            throw new IllegalStateException("send queue over its depth " + depth);
        }
        ring[(int) (tail++ & mask)] = e;
    }

    /** The next WR to start, or null. */
    SqEntry nextToStart() {
        return next == tail ? null : ring[(int) (next & mask)];
    }

    /** The WR {@link #nextToStart} returned has started. */
    void started() {
        next++;
    }

    /** Whether every WR has started. */
    boolean allStarted() {
        return next == tail;
    }

    /** Flush: nothing more starts. */
    void startNothingMore() {
        next = tail;
    }

    /** The oldest WR not retired, or null. */
    SqEntry oldest() {
        return head == tail ? null : ring[(int) (head & mask)];
    }

    /** Retires and returns the oldest WR, or null. */
    SqEntry retireOldest() {
        if (head == tail) {
            return null;
        }
        int i = (int) (head++ & mask);
        SqEntry e = ring[i];
        ring[i] = null;
        if (next < head) {
            next = head;
        }
        return e;
    }

    boolean isEmpty() {
        return head == tail;
    }

    int size() {
        return (int) (tail - head);
    }
}
