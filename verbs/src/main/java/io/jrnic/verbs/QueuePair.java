package io.jrnic.verbs;

import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A reliable-connected queue pair (iWARP has RC only). Created in IDLE; a connection moves it to
 * RTS. Posting is validated here (see {@link #postSend(SendWr)}); the provider executes.
 *
 * <p>Observable depth: {@link #sendQueueDepth()} and {@link #recvQueueDepth()} count work requests
 * posted and not yet retired.
 *
 * <p>Closing: a QP not in IDLE/ERROR is first moved to ERROR (aborting its stream), then destroyed;
 * every work request still outstanding completes with WR_FLUSH_ERROR on its CQ (if that CQ is open).
 *
 * <p>Retirement (the provider's upcalls, completions to the CQs, the flush) is {@code QpRetirement}'s;
 * it shares this QP's queues and their monitors: {@code sq}'s guards the send queue and {@code sendOne},
 * {@code rq}'s the receive queue and {@code recvOne}; the state is written under both (sq, then rq).
 */
public final class QueuePair extends Resource {
    private final ProtectionDomain pd;
    private final RdmaDevice device;
    private final QpInit init;
    private final QpSpi spi;
    private final QpRetirement retirement;
    private final WorkRequestValidator validator;
    private final ArrayDeque<SendWr> sq;
    private final ArrayDeque<RecvWr> rq;
    private final InboundAwaited awaited;
    private final SendWr[] sendOne = new SendWr[1];
    private final RecvWr[] recvOne = new RecvWr[1];
    private volatile QpState state = QpState.IDLE;
    private volatile Connection connection;
    private AsyncQueuePair async;
    private final int number;
    private final javax.management.ObjectName mbean;

    private QueuePair(ProtectionDomain pd, QpInit init, WorkRequestValidator validator) {
        super(pd, "QueuePair");
        this.pd = pd;
        this.device = pd.device();
        this.init = init;
        this.validator = validator;
        this.sq = new ArrayDeque<>(init.maxSendWr);
        this.rq = new ArrayDeque<>(Math.max(1, init.maxRecvWr));
        this.awaited = new InboundAwaited(init.srq != null);
        this.retirement = new QpRetirement(this, init, sq, rq, awaited);
        this.spi = pd.spi().createQp(new QpSpec(init.maxSendWr, init.maxRecvWr, init.maxSendSge, init.maxRecvSge,
                init.maxInline, init.signalAll, init.srq == null ? null : init.srq.spi()), retirement);
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

    static QueuePair create(ProtectionDomain pd, QpInit init) {
        RdmaDevice dev = pd.device();
        WorkRequestValidator validator = WorkRequestValidator.forQp(pd, init);
        RdmaDevice.reserve(dev.qps, dev.attributes().maxQp(), "queue pairs");
        try {
            QueuePair qp = new QueuePair(pd, init, validator);
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

    /**
     * Whether what the peer may still send could complete a work request of this QP on {@code cq}: a Read or Atomic
     * awaiting its response (the send CQ), a receive posted (the receive CQ). What an empty {@link CompletionQueue#poll}
     * lets the provider read the stream for ({@link InboundAwaited}). Any thread.
     */
    boolean awaitsInbound(CompletionQueue cq) {
        return (cq == init.sendCq && awaited.responses()) || (cq == init.recvCq && awaited.receives());
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
        postOne(wr, false);
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

    /** Posts a type 1 window's bind ({@link MemoryWindow#bind}) as one send WR. */
    void postBind(SendWr wr) {
        postOne(wr, true);
    }

    private void postOne(SendWr wr, boolean type1Bind) {
        synchronized (sq) {
            sendOne[0] = wr;
            try {
                postSendLocked(sendOne, 0, 1, type1Bind);
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

    // ---- consumer state changes ----

    /** Moves the QP to ERROR (abortive: the provider sends a Terminate if connected and flushes). Idempotent in ERROR. */
    public void toError() {
        checkOpen();
        apply(QpTrigger.MODIFY_TO_ERROR, null, true);
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
        apply(QpTrigger.RESET_TO_IDLE, null, true);
    }

    /**
     * Applies {@code t} through {@link QpStateMachine} under both queue monitors (sq, then rq) and reports
     * it: Observe, the trigger's async event (TERMINATE_SENT/RECEIVED, LLP_ERROR, CLOSE_COMPLETED) and
     * QP_LAST_WQE_REACHED when a QP with an SRQ enters ERROR. A {@code consumer} trigger (toError, reset)
     * raises LAST_WQE even on a closing QP and, when the state changed, goes on to the provider; the
     * provider's come through {@link QpRetirement#transition} and raise nothing once the QP is closed.
     * @return the new state
     */
    QpState apply(QpTrigger t, TerminateInfo terminate, boolean consumer) {
        QpState from;
        QpState to;
        synchronized (sq) {
            synchronized (rq) {
                from = state;
                to = QpStateMachine.next(from, t);
                state = to;
            }
        }
        Observe.transition(this, from, to, t, terminate);
        AsyncEventType ev = switch (t) {
            case TERMINATE_SENT -> AsyncEventType.QP_TERMINATE_SENT;
            case TERMINATE_RECEIVED -> AsyncEventType.QP_TERMINATE_RECEIVED;
            case LLP_ERROR -> AsyncEventType.QP_LLP_ERROR;
            case CLOSE_COMPLETED -> AsyncEventType.QP_LLP_CLOSED;
            default -> null;
        };
        if (ev != null) {
            raise(ev, terminate);
        }
        if (to == QpState.ERROR && from != QpState.ERROR && init.srq != null && (consumer || !isClosedFlag())) {
            device.raise(AsyncEventType.QP_LAST_WQE_REACHED, this, init.context, null);
        }
        if (consumer && from != to) {
            spi.modify(t);
        }
        return to;
    }

    /** Raises an affiliated event of this QP, unless it is closed. */
    void raise(AsyncEventType type, TerminateInfo terminate) {
        if (!isClosedFlag()) {
            device.raise(type, this, init.context, terminate);
        }
    }

    /**
     * The provider's object behind this QP, for provider-specific tools and tests (as {@code java.sql.Wrapper}): the
     * provider's QP as {@code type}.
     *
     * @throws IllegalArgumentException when the provider's QP is not a {@code type}
     */
    public <T> T unwrap(Class<T> type) {
        if (!type.isInstance(spi)) {
            throw new IllegalArgumentException("this QP's provider object is a " + spi.getClass().getName()
                    + ", not a " + type.getName());
        }
        return type.cast(spi);
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

    // ---- close ----

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
            retirement.flush();
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
}
