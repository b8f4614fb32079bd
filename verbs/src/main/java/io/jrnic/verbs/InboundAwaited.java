package io.jrnic.verbs;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a QP's peer may still send that completes one of its work requests: Reads and Atomics awaiting their
 * responses (RFC 5040 section 4.5, RFC 7306 section 8.1.2), and receives posted for its Sends (RFC 5041 section 5.3).
 * {@link CompletionQueue#poll} lets a provider read a QP's stream in place ({@link io.jrnic.verbs.spi.QpSpi#progress})
 * only when something there could complete on the CQ polled: a response for the send CQ, a message for the receive CQ
 * (always, with an SRQ). Otherwise a consumer spinning on the CQ of a QP that only writes would take the QP's ownership
 * for a read that finds nothing, again and again, and hold off the thread sending for it (spec-notes/engine.md,
 * "What a poller reads for"). Counts are changed under the QP's sq and rq monitors (each its own) and read by any
 * poller; release stores, no fence on the post path.
 */
final class InboundAwaited {
    private final AtomicInteger responses = new AtomicInteger();
    private final AtomicInteger receives = new AtomicInteger();
    private final boolean srq;

    InboundAwaited(boolean srq) {
        this.srq = srq;
    }

    /** Under the sq monitor: {@code wr} was posted ({@code +1}) or taken off the send queue ({@code -1}). */
    void send(SendWr wr, int delta) {
        if (wr.opcode().awaitsResponse()) {
            responses.lazySet(responses.get() + delta);
        }
    }

    /** Under the rq monitor, after the RQ changed: the receives now on it. */
    void receivesPosted(int n) {
        receives.lazySet(n);
    }

    /** Any thread: a response may come for the send queue. */
    boolean responses() {
        return responses.get() > 0;
    }

    /** Any thread: a message may come for the receive queue. */
    boolean receives() {
        return srq || receives.get() > 0;
    }
}
