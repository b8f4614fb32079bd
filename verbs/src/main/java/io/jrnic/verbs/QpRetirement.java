package io.jrnic.verbs;

import io.jrnic.verbs.spi.QpUpcalls;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The provider-facing side of one {@link QueuePair} (its {@link QpUpcalls}): retires work requests as
 * the provider reports them done, oldest first, and delivers their completions to the QP's CQs (or
 * to a WR's listener when its CQ or the QP is closed); flushes what is left with WR_FLUSH_ERROR in
 * ERROR and at close. State transitions and async events it hands back to the QP, which owns the
 * one state.
 *
 * <p>Locking: the send queue {@code sq} and the receive queue {@code rq} are the QP's own deques
 * (posting appends, this class removes); each is guarded by its own monitor, which every retirement
 * from that queue holds, so a retirement never interleaves with a post to the same queue. A receive
 * from the QP's SRQ is retired under the SRQ's queue monitor ({@link SharedReceiveQueue#retire})
 * instead. The QP's state is written under both monitors (sq, then rq) by the QP.
 *
 * <p>No allocation per completion: {@link #sendDone(SendWr)} fills one reused {@link Completion},
 * guarded by the sq monitor; the provider's own completions are filled in place.
 */
final class QpRetirement implements QpUpcalls {
    private final QueuePair qp;
    private final QpInit init;
    private final ArrayDeque<SendWr> sq;
    private final ArrayDeque<RecvWr> rq;
    /** The QP's counts of what the peer may still send (changed here as WRs leave sq and rq, under their monitors). */
    private final InboundAwaited awaited;
    private final Completion ok = new Completion();

    QpRetirement(QueuePair qp, QpInit init, ArrayDeque<SendWr> sq, ArrayDeque<RecvWr> rq, InboundAwaited awaited) {
        this.qp = qp;
        this.init = init;
        this.sq = sq;
        this.rq = rq;
        this.awaited = awaited;
    }

    @Override
    public QueuePair queuePair() {
        return qp;
    }

    @Override
    public QpState state() {
        return qp.state();
    }

    @Override
    public boolean sendDone(SendWr wr) {
        synchronized (sq) {
            WrOpcode op = wr.opcode();
            long len = op.isLocal() || op == WrOpcode.IMMEDIATE_DATA ? 0 : op.isAtomic() ? 8 : wr.totalLength();
            return retireSend(wr, ok.clear().byteLength((int) Math.min(len, Integer.MAX_VALUE)), true);
        }
    }

    @Override
    public boolean sendDone(SendWr wr, Completion c) {
        return retireSend(wr, c, true);
    }

    @Override
    public boolean recvDone(RecvWr wr, Completion c) {
        return retireRecv(wr, c, true);
    }

    @Override
    public QpState transition(QpTrigger trigger, TerminateInfo terminate) {
        return qp.apply(trigger, terminate, false);
    }

    @Override
    public int flushAll() {
        QpState s = qp.state();
        if (s != QpState.ERROR) {
            throw new IllegalStateException("flushAll only in ERROR, QP is " + s);
        }
        if (qp.isClosedFlag()) {
            return 0;
        }
        return flush();
    }

    @Override
    public void event(AsyncEventType type, TerminateInfo terminate) {
        if (type.kind() != AsyncEventType.Kind.QP) {
            throw new IllegalArgumentException(type + " is not a QP event");
        }
        qp.raise(type, terminate);
    }

    private boolean pushOrDeliver(CompletionQueue cq, Completion c) {
        boolean queued = !cq.isClosedFlag() && cq.push(c);
        if (!queued && c.listener != null && (qp.isClosedFlag() || cq.isClosedFlag())) {
            Consumer<Completion> l = c.listener;
            Completion snap = c.snapshot();
            l.accept(snap);
        }
        return queued;
    }

    private boolean retireSend(SendWr wr, Completion c, boolean fromProvider) {
        synchronized (sq) {
            if (!pollOldest(sq, wr, fromProvider, "send")) {
                return false;
            }
            awaited.send(wr, -1);
            Consumer<Completion> listener = wr.listener;
            wr.listener = null;
            boolean report = wr.isSignaled() || init.signalAll || c.status != CompletionStatus.SUCCESS || listener != null;
            long id = wr.id;
            wr.release();
            if (!report) {
                return true;
            }
            c.id = id;
            c.qp = qp;
            if (c.opcode == null) {
                c.opcode = wr.opcode().completionOpcode();
            }
            c.listener = listener;
            return pushOrDeliver(init.sendCq, c);
        }
    }

    private boolean retireRecv(RecvWr wr, Completion c, boolean fromProvider) {
        Object owner = wr.owner();
        if (owner instanceof SharedReceiveQueue srq) {
            if (fromProvider && qp.isClosedFlag()) {
                return false;
            }
            if (srq != init.srq || !srq.retire(wr)) {
                throw new IllegalStateException("receive WR not outstanding on this QP's SRQ: " + wr);
            }
            return finishRecv(wr, c);
        }
        synchronized (rq) {
            if (!pollOldest(rq, wr, fromProvider, "receive")) {
                return false;
            }
            awaited.receivesPosted(rq.size());
            return finishRecv(wr, c);
        }
    }

    /**
     * Takes {@code wr}, which must be the oldest, off {@code q} (its monitor held). False, leaving it, when
     * the provider reports on a closed QP (close flushes it instead).
     */
    private <W extends WorkRequest> boolean pollOldest(ArrayDeque<W> q, W wr, boolean fromProvider, String what) {
        if (fromProvider && qp.isClosedFlag()) {
            return false;
        }
        if (q.peekFirst() != wr) {
            throw new IllegalStateException(what + " WR retired out of order or not outstanding: " + wr);
        }
        q.pollFirst();
        return true;
    }

    private boolean finishRecv(RecvWr wr, Completion c) {
        Consumer<Completion> listener = wr.listener;
        wr.listener = null;
        c.id = wr.id;
        c.qp = qp;
        if (c.opcode == null) {
            c.opcode = CompletionOpcode.RECV;
        }
        c.listener = listener;
        wr.release();
        return pushOrDeliver(init.recvCq, c);
    }

    /**
     * Retires every send WR and RQ receive still outstanding with WR_FLUSH_ERROR, in order (the SRQ's
     * receives belong to no QP and stay). Called in ERROR ({@link #flushAll}) and by the QP's close.
     * @return how many were flushed
     */
    int flush() {
        int n = 0;
        Completion scratch = new Completion();
        synchronized (sq) {
            while (!sq.isEmpty()) {
                retireSend(sq.peekFirst(), scratch.clear().status(CompletionStatus.WR_FLUSH_ERROR), false);
                n++;
            }
        }
        synchronized (rq) {
            while (!rq.isEmpty()) {
                retireRecv(rq.peekFirst(), scratch.clear().status(CompletionStatus.WR_FLUSH_ERROR), false);
                n++;
            }
        }
        return n;
    }
}
