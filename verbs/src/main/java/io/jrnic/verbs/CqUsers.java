package io.jrnic.verbs;

import io.jrnic.verbs.spi.InputWaiter;
import java.util.Arrays;

/**
 * The QPs a {@link CompletionQueue} serves, and what a thread polling that CQ does for their providers: lets them
 * progress (round robin, a few per call), tells them the consumer stops polling, and finds the one QP whose input a
 * blocked consumer may wait on. Attach, detach and snapshots are serialised on this object; the array the pollers walk
 * is read without a lock (a slot may hold a QP being detached, or null; both harmless).
 */
final class CqUsers {
    /** QPs {@link #progress} visits per call: bounds an empty poll's cost on a CQ shared by many QPs. */
    static final int PROGRESS_PER_CALL = 4;

    private final CompletionQueue cq;
    /**
     * The QPs: a growable array and its length, changed on this object's monitor (attach appends, detach moves the
     * last into the hole) and read without it by the pollers.
     */
    private volatile QueuePair[] progressors = new QueuePair[4];
    private volatile int progressorCount;
    /** Where the next {@link #progress} starts (races between pollers are harmless). */
    private int progressCursor;

    CqUsers(CompletionQueue cq) {
        this.cq = cq;
    }

    synchronized void attach(QueuePair qp) {
        QueuePair[] a = progressors;
        int k = progressorCount;
        if (indexOf(a, k, qp) >= 0) {
            return;
        }
        if (k == a.length) {
            a = Arrays.copyOf(a, 2 * k);
        }
        a[k] = qp;
        progressors = a;
        progressorCount = k + 1;
    }

    synchronized void detach(QueuePair qp) {
        QueuePair[] a = progressors;
        int last = progressorCount - 1;
        int i = indexOf(a, last + 1, qp);
        if (i >= 0) {
            a[i] = a[last];
            a[last] = null;
            progressorCount = last;
        }
    }

    private static int indexOf(QueuePair[] a, int n, QueuePair qp) {
        for (int i = 0; i < n; i++) {
            if (a[i] == qp) {
                return i;
            }
        }
        return -1;
    }

    /** A snapshot of the QPs (closing the CQ closes them). */
    synchronized QueuePair[] snapshot() {
        return Arrays.copyOf(progressors, progressorCount);
    }

    /** Whether exactly one QP uses the CQ. */
    boolean single() {
        return progressorCount == 1;
    }

    /**
     * {@link CompletionQueue#progress()}: at most {@link #PROGRESS_PER_CALL} QPs' providers progress on the calling
     * thread; {@code awaitedOnly}: only QPs whose peers may still send what completes on the CQ. True when any did.
     */
    boolean progress(boolean awaitedOnly) {
        QueuePair[] qps = progressors;
        int k = Math.min(progressorCount, qps.length);
        if (k == 0) {
            return false;
        }
        boolean any = false;
        int start = progressCursor;
        int m = Math.min(k, PROGRESS_PER_CALL);
        for (int i = 0; i < m; i++) {
            QueuePair qp = qps[Math.floorMod(start + i, k)];
            any |= qp != null && (!awaitedOnly || qp.awaitsInbound(cq)) && qp.spi().progress();
        }
        progressCursor = start + m;
        return any;
    }

    /** The consumer stops polling: providers whose pollers did their threads' work give it back (a check per QP). */
    void stopPolling() {
        QueuePair[] qps = progressors;
        for (int i = 0, k = Math.min(progressorCount, qps.length); i < k; i++) {
            QueuePair qp = qps[i];
            if (qp != null) {
                qp.spi().pollingStops();
            }
        }
    }

    /**
     * The waiter of the one QP the CQ serves, when its provider offers one and its peer may still send what completes
     * on the CQ ({@link InboundAwaited}); else null: a consumer waiting only for what the provider's own threads
     * complete (a Write's or a Send's completion) is woken by the completion, not by the socket.
     */
    InputWaiter soleInputWaiter() {
        QueuePair[] qps = progressors;
        if (progressorCount != 1) {
            return null;
        }
        QueuePair qp = qps[0];
        return qp == null || !qp.awaitsInbound(cq) ? null : qp.spi().inputWaiter();
    }
}
