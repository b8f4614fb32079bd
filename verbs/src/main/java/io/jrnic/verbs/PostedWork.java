package io.jrnic.verbs;

import io.jrnic.verbs.spi.QpSpi;
import java.util.ArrayDeque;

/**
 * One {@link QueuePair}'s record of posted work and the state that admits it: the send and receive queues of WRs
 * posted and not yet retired (their depths are the API's), the {@link InboundAwaited} counts, and the QP's state.
 * A post is checked against the state, the WR rules ({@link WorkRequestValidator}) and the queue's depth, all or
 * nothing, recorded, then handed to the provider (and taken back if the provider refuses).
 *
 * <p>Locking: {@code sq}'s monitor guards the send queue and {@code sendOne}, {@code rq}'s the receive queue and
 * {@code recvOne}; {@link QpRetirement} removes under the same monitors. The state is written under both (sq, then
 * rq), so a post sees the state that holds until it is recorded.
 */
final class PostedWork {
    /** What the WRs are acquired for, and whose closed check a post makes under the queue's monitor. */
    private final QueuePair qp;
    private final QpInit init;
    private final WorkRequestValidator validator;
    private final ArrayDeque<SendWr> sq;
    private final ArrayDeque<RecvWr> rq;
    private final InboundAwaited awaited;
    private final SendWr[] sendOne = new SendWr[1];
    private final RecvWr[] recvOne = new RecvWr[1];
    private volatile QpState state = QpState.IDLE;

    /** A change of the QP's state: the state left and the state entered (the same when the trigger changes none). */
    record Change(QpState from, QpState to) {}

    PostedWork(QueuePair qp, QpInit init, WorkRequestValidator validator) {
        this.qp = qp;
        this.init = init;
        this.validator = validator;
        this.sq = new ArrayDeque<>(init.maxSendWr);
        this.rq = new ArrayDeque<>(Math.max(1, init.maxRecvWr));
        this.awaited = new InboundAwaited(init.srq != null);
    }

    /** The retirement side of these queues (shares them and their monitors). */
    QpRetirement retirement() {
        return new QpRetirement(qp, init, sq, rq, awaited);
    }

    QpState state() {
        return state;
    }

    /** Applies {@code t} through {@link QpStateMachine} under both monitors (sq, then rq). */
    Change transition(QpTrigger t) {
        synchronized (sq) {
            synchronized (rq) {
                QpState from = state;
                state = QpStateMachine.next(from, t);
                return new Change(from, state);
            }
        }
    }

    /** @throws QpStateException unless in ERROR with both queues empty (what a reset needs) */
    void checkResettable() {
        synchronized (sq) {
            synchronized (rq) {
                if (state != QpState.ERROR || !sq.isEmpty() || !rq.isEmpty()) {
                    throw new QpStateException(state, "reset needs ERROR with empty queues (sq=" + sq.size()
                            + ", rq=" + rq.size() + ")");
                }
            }
        }
    }

    /** See {@link QueuePair#awaitsInbound}. */
    boolean awaitsResponses() {
        return awaited.responses();
    }

    boolean awaitsReceives() {
        return awaited.receives();
    }

    int sendDepth() {
        synchronized (sq) {
            return sq.size();
        }
    }

    int recvDepth() {
        synchronized (rq) {
            return rq.size();
        }
    }

    // ---- sends ----

    /** One send WR, without allocating. */
    void postSend(QpSpi spi, SendWr wr, boolean type1Bind) {
        synchronized (sq) {
            sendOne[0] = wr;
            try {
                postSendLocked(spi, sendOne, 0, 1, type1Bind);
            } finally {
                sendOne[0] = null;
            }
        }
    }

    /** A batch, all or nothing ({@code wrs} is the caller's copy). */
    void postSend(QpSpi spi, SendWr[] wrs) {
        synchronized (sq) {
            postSendLocked(spi, wrs, 0, wrs.length, false);
        }
    }

    private void postSendLocked(QpSpi spi, SendWr[] wrs, int off, int n, boolean type1Bind) {
        qp.checkOpen();
        QpState s = state;
        if (!QpStateMachine.canPostSend(s)) {
            throw new QpStateException(s, "sends can be posted only in RTS");
        }
        for (int i = 0; i < n; i++) {
            validator.validateSend(wrs[off + i], i, type1Bind);
        }
        if (sq.size() + n > init.maxSendWr) {
            throw new QueueFullException("send queue", sq.size(), n, init.maxSendWr);
        }
        acquireAll(wrs, off, n);
        for (int i = 0; i < n; i++) {
            sq.addLast(wrs[off + i]);
            awaited.send(wrs[off + i], 1);
        }
        try {
            spi.postSend(wrs, off, n);
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                sq.removeLastOccurrence(wrs[off + i]);
                awaited.send(wrs[off + i], -1);
                wrs[off + i].release();
            }
            throw e;
        }
    }

    private void acquireAll(WorkRequest[] wrs, int off, int n) {
        for (int i = 0; i < n; i++) {
            if (!wrs[off + i].acquire(qp)) {
                for (int j = 0; j < i; j++) {
                    wrs[off + j].release();
                }
                throw new WorkRequestInFlightException(wrs[off + i]);
            }
        }
    }

    // ---- receives ----

    /** One receive, without allocating. */
    void postRecv(QpSpi spi, RecvWr wr) {
        synchronized (rq) {
            recvOne[0] = wr;
            try {
                postRecvLocked(spi, recvOne, 0, 1);
            } finally {
                recvOne[0] = null;
            }
        }
    }

    /** Receives, all or nothing ({@code wrs} is the caller's copy). */
    void postRecv(QpSpi spi, RecvWr[] wrs) {
        synchronized (rq) {
            postRecvLocked(spi, wrs, 0, wrs.length);
        }
    }

    private void postRecvLocked(QpSpi spi, RecvWr[] wrs, int off, int n) {
        qp.checkOpen();
        QpState s = state;
        if (!QpStateMachine.canPostRecv(s)) {
            throw new QpStateException(s, "receives can be posted only in IDLE or RTS");
        }
        for (int i = 0; i < n; i++) {
            validator.validateRecv(wrs[off + i], i);
        }
        if (rq.size() + n > init.maxRecvWr) {
            throw new QueueFullException("receive queue", rq.size(), n, init.maxRecvWr);
        }
        acquireAll(wrs, off, n);
        for (int i = 0; i < n; i++) {
            rq.addLast(wrs[off + i]);
        }
        awaited.receivesPosted(rq.size());
        try {
            spi.postRecv(wrs, off, n);
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                rq.removeLastOccurrence(wrs[off + i]);
                wrs[off + i].release();
            }
            awaited.receivesPosted(rq.size());
            throw e;
        }
    }
}
