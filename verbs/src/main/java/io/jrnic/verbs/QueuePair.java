package io.jrnic.verbs;

import io.jrnic.verbs.InvalidWorkRequestException.Reason;
import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import io.jrnic.verbs.spi.QpUpcalls;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A reliable-connected queue pair (iWARP has RC only). Created in IDLE; a connection moves it to
 * RTS. Posting is validated here (see {@link #postSend(SendWr)}); the provider executes.
 *
 * <p>Observable depth: {@link #sendQueueDepth()} and {@link #recvQueueDepth()} count work requests
 * posted and not yet retired.
 *
 * <p>Closing: a QP not in IDLE/ERROR is first moved to ERROR (aborting its stream), then destroyed;
 * every work request still outstanding completes with WR_FLUSH_ERROR on its CQ (if that CQ is open).
 */
public final class QueuePair extends Resource {
    private final ProtectionDomain pd;
    private final RdmaDevice device;
    private final QpInit init;
    private final QpSpi spi;
    private final Upcalls upcalls = new Upcalls();
    private final WorkRequestValidator validator;
    private final ArrayDeque<SendWr> sq;
    private final ArrayDeque<RecvWr> rq;
    private final SendWr[] sendOne = new SendWr[1];
    private final RecvWr[] recvOne = new RecvWr[1];
    private volatile QpState state = QpState.IDLE;
    private volatile Connection connection;
    private AsyncQueuePair async;
    private final int number;
    private final javax.management.ObjectName mbean;

    private QueuePair(ProtectionDomain pd, QpInit init, QpSpiFactory factory) {
        super(pd, "QueuePair");
        this.pd = pd;
        this.device = pd.device();
        this.init = init;
        this.validator = new WorkRequestValidator(pd, init);
        this.sq = new ArrayDeque<>(init.maxSendWr);
        this.rq = new ArrayDeque<>(Math.max(1, init.maxRecvWr));
        this.spi = factory.create(this);
        this.number = device.qpNumbers.incrementAndGet();
        this.mbean = io.jrnic.verbs.observe.Jmx.registerQp(device.objectName(), number, this::stats);
    }

    /** This QP's number within its device (JMX name {@code qp=<n>}, JFR events, log lines). */
    public int number() {
        return number;
    }

    /** A snapshot of this QP's counters. */
    public Stats stats() {
        return spi.stats();
    }

    private interface QpSpiFactory {
        QpSpi create(QueuePair qp);
    }

    static QueuePair create(ProtectionDomain pd, QpInit init) {
        RdmaDevice dev = pd.device();
        DeviceAttributes a = dev.attributes();
        checkRange("maxSendWr", init.maxSendWr, 1, a.maxQpWr());
        checkRange("maxRecvWr", init.maxRecvWr, init.srq == null ? 1 : 0, init.srq == null ? a.maxQpWr() : 0);
        checkRange("maxSendSge", init.maxSendSge, 1, a.maxSge());
        checkRange("maxRecvSge", init.maxRecvSge, 1, a.maxSge());
        checkRange("maxInline", init.maxInline, 0, a.maxInline());
        for (CompletionQueue cq : new CompletionQueue[] {init.sendCq, init.recvCq}) {
            cq.checkOpen();
            if (cq.device() != dev) {
                throw new IllegalArgumentException("CQ belongs to another device");
            }
        }
        if (init.srq != null) {
            init.srq.checkOpen();
            if (init.srq.pd() != pd) {
                throw new IllegalArgumentException("SRQ belongs to another protection domain");
            }
        }
        RdmaDevice.reserve(dev.qps, a.maxQp(), "queue pairs");
        try {
            QueuePair qp = new QueuePair(pd, init, q -> pd.spi().createQp(new QpSpec(init.maxSendWr, init.maxRecvWr,
                    init.maxSendSge, init.maxRecvSge, init.maxInline, init.signalAll,
                    init.srq == null ? null : init.srq.spi()), q.upcalls));
            init.sendCq.attach(qp);
            init.recvCq.attach(qp);
            if (init.srq != null) {
                init.srq.attach(qp);
            }
            return qp;
        } catch (RuntimeException e) {
            dev.qps.decrementAndGet();
            throw e;
        }
    }

    private static void checkRange(String what, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(what + " " + v + " outside " + min + ".." + max);
        }
    }

    @Override
    int closeRank() {
        return 0;
    }

    // ---- attributes ----

    public ProtectionDomain pd() {
        return pd;
    }

    public Object context() {
        return init.context;
    }

    public QpInit init() {
        return init;
    }

    public CompletionQueue sendCq() {
        return init.sendCq;
    }

    public CompletionQueue recvCq() {
        return init.recvCq;
    }

    public SharedReceiveQueue srq() {
        return init.srq;
    }

    public QpState state() {
        return state;
    }

    /** The connection this QP is bound to, or null. */
    public Connection connection() {
        return connection;
    }

    /** Send WRs posted and not retired. */
    public int sendQueueDepth() {
        synchronized (sq) {
            return sq.size();
        }
    }

    /** Receive WRs posted to this QP's own RQ and not consumed. */
    public int recvQueueDepth() {
        synchronized (rq) {
            return rq.size();
        }
    }

    /** The future-based convenience layer over this QP (built on postSend/postRecv and CQ polling). */
    public synchronized AsyncQueuePair async() {
        if (async == null) {
            async = new AsyncQueuePair(this);
        }
        return async;
    }

    // ---- posting ----

    /**
     * Posts one send WR without allocating.
     *
     * @throws ResourceClosedException       QP closed
     * @throws QpStateException              QP not in RTS
     * @throws WorkRequestInFlightException  {@code wr} still in flight
     * @throws QueueFullException            send queue full
     * @throws InvalidWorkRequestException   a rule of {@link InvalidWorkRequestException.Reason} broken
     */
    public void postSend(SendWr wr) {
        synchronized (sq) {
            sendOne[0] = wr;
            try {
                postSendLocked(sendOne, 0, 1, false);
            } finally {
                sendOne[0] = null;
            }
        }
    }

    /** Posts a batch, all or nothing: every WR is validated before any is handed to the provider. Same exceptions. */
    public void postSend(SendWr... wrs) {
        synchronized (sq) {
            postSendLocked(wrs.clone(), 0, wrs.length, false);
        }
    }

    /** Posts a batch in list order. */
    public void postSend(List<SendWr> wrs) {
        postSend(wrs.toArray(new SendWr[0]));
    }

    void postBind(SendWr wr) {
        synchronized (sq) {
            sendOne[0] = wr;
            try {
                postSendLocked(sendOne, 0, 1, true);
            } finally {
                sendOne[0] = null;
            }
        }
    }

    private void postSendLocked(SendWr[] wrs, int off, int n, boolean type1Bind) {
        checkOpen();
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
        }
        try {
            spi.postSend(wrs, off, n);
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                sq.removeLastOccurrence(wrs[off + i]);
                wrs[off + i].release();
            }
            throw e;
        }
    }

    private void acquireAll(WorkRequest[] wrs, int off, int n) {
        for (int i = 0; i < n; i++) {
            if (!wrs[off + i].acquire(this)) {
                for (int j = 0; j < i; j++) {
                    wrs[off + j].release();
                }
                throw new WorkRequestInFlightException(wrs[off + i]);
            }
        }
    }

    /** Posts one receive without allocating. Exceptions as {@link #postRecv(RecvWr...)}. */
    public void postRecv(RecvWr wr) {
        synchronized (rq) {
            recvOne[0] = wr;
            try {
                postRecvLocked(recvOne, 0, 1);
            } finally {
                recvOne[0] = null;
            }
        }
    }

    /**
     * Posts receives, all or nothing.
     *
     * @throws QpStateException             QP not in IDLE or RTS
     * @throws InvalidWorkRequestException  QP_USES_SRQ, TOO_MANY_SGES, REGION_INVALID, PD_MISMATCH,
     *                                      SGE_OUT_OF_BOUNDS, MISSING_LOCAL_WRITE
     * @throws QueueFullException          receive queue full
     * @throws WorkRequestInFlightException a WR object still outstanding
     * @throws ResourceClosedException     the QP is closed
     */
    public void postRecv(RecvWr... wrs) {
        synchronized (rq) {
            postRecvLocked(wrs.clone(), 0, wrs.length);
        }
    }

    public void postRecv(List<RecvWr> wrs) {
        postRecv(wrs.toArray(new RecvWr[0]));
    }

    private void postRecvLocked(RecvWr[] wrs, int off, int n) {
        checkOpen();
        QpState s = state;
        if (!QpStateMachine.canPostRecv(s)) {
            throw new QpStateException(s, "receives can be posted only in IDLE or RTS");
        }
        for (int i = 0; i < n; i++) {
            RecvWr wr = wrs[off + i];
            if (wr.isInFlight()) {
                throw new WorkRequestInFlightException(wr);
            }
            if (init.srq != null) {
                throw new InvalidWorkRequestException(i, Reason.QP_USES_SRQ, "post receives to the SRQ");
            }
            WorkRequestValidator.validateRecv(this.pd, init.maxRecvSge, wr, i);
        }
        if (rq.size() + n > init.maxRecvWr) {
            throw new QueueFullException("receive queue", rq.size(), n, init.maxRecvWr);
        }
        acquireAll(wrs, off, n);
        for (int i = 0; i < n; i++) {
            rq.addLast(wrs[off + i]);
        }
        try {
            spi.postRecv(wrs, off, n);
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                rq.removeLastOccurrence(wrs[off + i]);
                wrs[off + i].release();
            }
            throw e;
        }
    }

    // ---- consumer state changes ----

    /** Moves the QP to ERROR (abortive: the provider sends a Terminate if connected and flushes). Idempotent in ERROR. */
    public void toError() {
        checkOpen();
        applyConsumer(QpTrigger.MODIFY_TO_ERROR);
    }

    /**
     * ERROR -> IDLE for reuse. @throws QpStateException when not in ERROR or work is still outstanding
     */
    public void reset() {
        checkOpen();
        synchronized (sq) {
            synchronized (rq) {
                if (state != QpState.ERROR || !sq.isEmpty() || !rq.isEmpty()) {
                    throw new QpStateException(state, "reset needs ERROR with empty queues (sq=" + sq.size()
                            + ", rq=" + rq.size() + ")");
                }
            }
        }
        applyConsumer(QpTrigger.RESET_TO_IDLE);
    }

    private void applyConsumer(QpTrigger t) {
        QpState from;
        QpState to;
        synchronized (sq) {
            synchronized (rq) {
                from = state;
                to = QpStateMachine.next(from, t);
                state = to;
            }
        }
        Observe.transition(this, from, to, t, null);
        if (from != to) {
            if (to == QpState.ERROR && init.srq != null) {
                device.raise(AsyncEventType.QP_LAST_WQE_REACHED, this, init.context, null);
            }
            spi.modify(t);
        }
    }

    // ---- binding to connections (connection manager) ----

    QpSpi spi() {
        return spi;
    }

    synchronized void bind(Connection c) {
        if (connection != null) {
            throw new IllegalStateException("QP already has a connection");
        }
        if (state != QpState.IDLE) {
            throw new QpStateException(state, "only an IDLE QP can be connected");
        }
        connection = c;
    }

    synchronized void unbind(Connection c) {
        if (connection == c) {
            connection = null;
        }
    }

    // ---- retirement (provider upcalls and close) ----

    private boolean pushOrDeliver(CompletionQueue cq, Completion c) {
        boolean queued = !cq.isClosedFlag() && cq.push(c);
        if (!queued && c.listener != null && (isClosedFlag() || cq.isClosedFlag())) {
            Consumer<Completion> l = c.listener;
            Completion snap = c.snapshot();
            l.accept(snap);
        }
        return queued;
    }

    private boolean retireSend(SendWr wr, Completion c, boolean fromProvider) {
        synchronized (sq) {
            if (fromProvider && isClosedFlag()) {
                return false;
            }
            if (sq.peekFirst() != wr) {
                throw new IllegalStateException("send WR retired out of order or not outstanding: " + wr);
            }
            sq.pollFirst();
            Consumer<Completion> listener = wr.listener;
            wr.listener = null;
            boolean report = wr.isSignaled() || init.signalAll || c.status != CompletionStatus.SUCCESS || listener != null;
            long id = wr.id;
            wr.release();
            if (!report) {
                return true;
            }
            c.id = id;
            c.qp = this;
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
            if (fromProvider && isClosedFlag()) {
                return false;
            }
            if (srq != init.srq || !srq.retire(wr)) {
                throw new IllegalStateException("receive WR not outstanding on this QP's SRQ: " + wr);
            }
            return finishRecv(wr, c);
        }
        synchronized (rq) {
            if (fromProvider && isClosedFlag()) {
                return false;
            }
            if (rq.peekFirst() != wr) {
                throw new IllegalStateException("receive WR retired out of order or not outstanding: " + wr);
            }
            rq.pollFirst();
            return finishRecv(wr, c);
        }
    }

    private boolean finishRecv(RecvWr wr, Completion c) {
        Consumer<Completion> listener = wr.listener;
        wr.listener = null;
        c.id = wr.id;
        c.qp = this;
        if (c.opcode == null) {
            c.opcode = CompletionOpcode.RECV;
        }
        c.listener = listener;
        wr.release();
        return pushOrDeliver(init.recvCq, c);
    }

    private int flushQueues() {
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

    @Override
    void release() {
        io.jrnic.verbs.observe.Jmx.unregister(mbean);
        try {
            QpState s = state;
            if (s != QpState.IDLE && s != QpState.ERROR) {
                synchronized (sq) {
                    synchronized (rq) {
                        state = QpStateMachine.next(state, QpTrigger.MODIFY_TO_ERROR);
                    }
                }
                spi.modify(QpTrigger.MODIFY_TO_ERROR);
            }
            spi.close();
        } finally {
            flushQueues();
            Connection c = connection;
            if (c != null) {
                c.qpClosed();
            }
            init.sendCq.detach(this);
            init.recvCq.detach(this);
            if (init.srq != null) {
                init.srq.detach(this);
            }
            device.qps.decrementAndGet();
        }
    }

    @Override
    public String toString() {
        return "QueuePair[" + number + " " + state + " context=" + init.context + "]";
    }

    /** The provider-facing side of this QP. */
    private final class Upcalls implements QpUpcalls {
        private final Completion ok = new Completion();

        @Override
        public QueuePair queuePair() {
            return QueuePair.this;
        }

        @Override
        public QpState state() {
            return state;
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
            QpState from;
            QpState to;
            synchronized (sq) {
                synchronized (rq) {
                    from = state;
                    to = QpStateMachine.next(from, trigger);
                    state = to;
                }
            }
            AsyncEventType ev = switch (trigger) {
                case TERMINATE_SENT -> AsyncEventType.QP_TERMINATE_SENT;
                case TERMINATE_RECEIVED -> AsyncEventType.QP_TERMINATE_RECEIVED;
                case LLP_ERROR -> AsyncEventType.QP_LLP_ERROR;
                case CLOSE_COMPLETED -> AsyncEventType.QP_LLP_CLOSED;
                default -> null;
            };
            Observe.transition(QueuePair.this, from, to, trigger, terminate);
            if (ev != null && !isClosedFlag()) {
                device.raise(ev, QueuePair.this, init.context, terminate);
            }
            if (to == QpState.ERROR && from != QpState.ERROR && init.srq != null && !isClosedFlag()) {
                device.raise(AsyncEventType.QP_LAST_WQE_REACHED, QueuePair.this, init.context, null);
            }
            return to;
        }

        @Override
        public int flushAll() {
            if (state != QpState.ERROR) {
                throw new IllegalStateException("flushAll only in ERROR, QP is " + state);
            }
            if (isClosedFlag()) {
                return 0;
            }
            return flushQueues();
        }

        @Override
        public void event(AsyncEventType type, TerminateInfo terminate) {
            if (type.kind() != AsyncEventType.Kind.QP) {
                throw new IllegalArgumentException(type + " is not a QP event");
            }
            if (!isClosedFlag()) {
                device.raise(type, QueuePair.this, init.context, terminate);
            }
        }
    }
}
