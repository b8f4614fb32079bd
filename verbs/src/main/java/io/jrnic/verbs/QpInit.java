package io.jrnic.verbs;

import java.util.Objects;

/**
 * Immutable QP creation options (verbs "Create QP" attributes), RC only.
 * Defaults: 128 send WRs, 128 receive WRs (0 with an SRQ), 1 SGE each way, no inline, unsignaled
 * sends unless {@link #signalAll(boolean)}, no context.
 */
public final class QpInit {
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final SharedReceiveQueue srq;
    final int maxSendWr;
    final int maxRecvWr;
    final int maxSendSge;
    final int maxRecvSge;
    final int maxInline;
    final boolean signalAll;
    final Object context;

    private QpInit(CompletionQueue sendCq, CompletionQueue recvCq, SharedReceiveQueue srq, int maxSendWr, int maxRecvWr,
                   int maxSendSge, int maxRecvSge, int maxInline, boolean signalAll, Object context) {
        this.sendCq = Objects.requireNonNull(sendCq, "sendCq");
        this.recvCq = Objects.requireNonNull(recvCq, "recvCq");
        this.srq = srq;
        this.maxSendWr = maxSendWr;
        this.maxRecvWr = maxRecvWr;
        this.maxSendSge = maxSendSge;
        this.maxRecvSge = maxRecvSge;
        this.maxInline = maxInline;
        this.signalAll = signalAll;
        this.context = context;
    }

    /** One CQ for both queues. */
    public static QpInit rc(CompletionQueue cq) {
        return rc(cq, cq);
    }

    public static QpInit rc(CompletionQueue sendCq, CompletionQueue recvCq) {
        return new QpInit(sendCq, recvCq, null, 128, 128, 1, 1, 0, false, null);
    }

    public QpInit maxSendWr(int n) {
        return new QpInit(sendCq, recvCq, srq, n, maxRecvWr, maxSendSge, maxRecvSge, maxInline, signalAll, context);
    }

    public QpInit maxRecvWr(int n) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, n, maxSendSge, maxRecvSge, maxInline, signalAll, context);
    }

    public QpInit maxSendSge(int n) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, maxRecvWr, n, maxRecvSge, maxInline, signalAll, context);
    }

    public QpInit maxRecvSge(int n) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, maxRecvWr, maxSendSge, n, maxInline, signalAll, context);
    }

    /** Same SGE limit both ways. */
    public QpInit maxSge(int n) {
        return maxSendSge(n).maxRecvSge(n);
    }

    public QpInit maxInline(int n) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, n, signalAll, context);
    }

    public QpInit signalAll(boolean on) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInline, on, context);
    }

    /** Receives come from {@code srq}; sets maxRecvWr to 0. */
    public QpInit srq(SharedReceiveQueue s) {
        return new QpInit(sendCq, recvCq, s, maxSendWr, 0, maxSendSge, maxRecvSge, maxInline, signalAll, context);
    }

    /** Handed back in completions, async events and CM events. */
    public QpInit context(Object ctx) {
        return new QpInit(sendCq, recvCq, srq, maxSendWr, maxRecvWr, maxSendSge, maxRecvSge, maxInline, signalAll, ctx);
    }

    public int maxSendWr() { return maxSendWr; }
    public int maxRecvWr() { return maxRecvWr; }
    public int maxSendSge() { return maxSendSge; }
    public int maxRecvSge() { return maxRecvSge; }
    public int maxInline() { return maxInline; }
    public boolean signalAll() { return signalAll; }
    public Object context() { return context; }
    public CompletionQueue sendCq() { return sendCq; }
    public CompletionQueue recvCq() { return recvCq; }
    public SharedReceiveQueue srq() { return srq; }
}
