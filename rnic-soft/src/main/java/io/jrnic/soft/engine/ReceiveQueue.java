package io.jrnic.soft.engine;

import io.jrnic.ddp.UntaggedCompletion;
import io.jrnic.ddp.UntaggedReceiver;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;

/**
 * A QP's receive queue (QN 0): receives posted by any thread wait in a lock-free bounded queue; the engine moves
 * them, in posting order, into a ring of at most {@code depth} entries and into the DDP untagged receiver, whose
 * buffer ids are the ring's sequence numbers, so that message MSN n consumes the n-th receive (RFC 5041 section
 * 5.3). With an SRQ the ring holds at most {@link #SRQ_WINDOW} receives, each taken from the SRQ when its
 * message starts. Everything but {@link #offer} runs under the QP's lock.
 */
final class ReceiveQueue {
    /** Receives an SRQ QP holds at most (taken when their message starts; untagged messages never interleave). */
    static final int SRQ_WINDOW = 4;
    private final Queue<RqEntry> incoming;
    /** Receives shared with other QPs (FIFO, thread-safe), or null. */
    private final Queue<RqEntry> srq;
    private final int depth;
    private final RqEntry[] ring;
    /** Sequence numbers of the oldest receive held and of the next one. */
    private long head;
    private long tail;
    private UntaggedReceiver untagged;

    ReceiveQueue(int postDepth, Queue<RqEntry> srq) {
        this.srq = srq;
        this.depth = srq != null ? SRQ_WINDOW : Math.max(1, postDepth);
        this.ring = new RqEntry[depth];
        this.incoming = PlatformDependent.newFixedMpscQueue(Math.max(2, postDepth));
        this.untagged = new UntaggedReceiver(1, depth);
    }

    /** Any thread: false when the queue is at its depth. */
    boolean offer(RqEntry e) {
        return incoming.offer(e);
    }

    /** The DDP untagged receiver of QN 0 (RFC 5041 section 5.3). */
    UntaggedReceiver untagged() {
        return untagged;
    }

    int held() {
        return (int) (tail - head);
    }

    /** A new stream: a fresh untagged receiver (MSN 1) with the held receives posted again, in order. */
    void rebind() {
        untagged = new UntaggedReceiver(1, depth);
        for (long s = head; s < tail; s++) {
            untagged.postBuffer(0, s, entry(s).sgl.total());
        }
    }

    /** Moves posted receives into the untagged receiver while the ring has room. */
    void drain() {
        while (tail - head < depth) {
            RqEntry e = incoming.poll();
            if (e == null) {
                return;
            }
            hold(e);
        }
    }

    /**
     * SRQ: when message {@code msn} starts and no receive is held for it, takes the oldest receive of the SRQ
     * (RFC 5041 section 5.3 consumption order is the SRQ's FIFO order).
     */
    void takeFromSrq(long msn) {
        if (srq == null || tail - head >= depth) {
            return;
        }
        long d = (msn - untagged.expectedMsn(0)) & 0xFFFF_FFFFL;
        if (d != tail - head) {
            return;
        }
        RqEntry e = srq.poll();
        if (e != null) {
            hold(e);
        }
    }

    private void hold(RqEntry e) {
        ring[(int) (tail % depth)] = e;
        untagged.postBuffer(0, tail, e.sgl.total());
        tail++;
    }

    /** The receive with sequence number (untagged buffer id) {@code seq}. */
    RqEntry entry(long seq) {
        return ring[(int) (seq % depth)];
    }

    /** The held receive that message {@code msn} goes to, or null when none is held. */
    RqEntry entryForMsn(long msn) {
        long d = (msn - untagged.expectedMsn(0)) & 0xFFFF_FFFFL;
        return d < tail - head ? entry(head + d) : null;
    }

    boolean isOldest(RqEntry e) {
        return head < tail && entry(head) == e;
    }

    /** The oldest receive if its message completed ({@code c} filled in), else null. */
    RqEntry pollCompleted(UntaggedCompletion c) {
        return untagged.pollCompletion(0, c) ? release() : null;
    }

    /** Takes the oldest receive out of the ring for a failure ({@code c}: the length placed so far). */
    RqEntry pollFailed(UntaggedCompletion c) {
        RqEntry e = release();
        untagged.pollFlush(0, c);
        return e;
    }

    /** Takes the next receive to flush: held ones first, then those not yet drained; null when none is left. */
    RqEntry pollFlushed() {
        return head < tail ? release() : incoming.poll();
    }

    /** After a flush: the untagged receiver forgets its buffers (bookkeeping only). */
    void forgetBuffers(UntaggedCompletion c) {
        while (untagged.pollFlush(0, c)) {
            // the entries were retired by the flush
        }
    }

    private RqEntry release() {
        int i = (int) (head % depth);
        RqEntry e = ring[i];
        ring[i] = null;
        head++;
        return e;
    }
}
