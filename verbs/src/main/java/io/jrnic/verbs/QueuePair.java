package io.jrnic.verbs;

import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
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
 * <p>The record of posted WRs, their admission and the state that admits them are {@code PostedWork}'s; retirement
 * (the provider's upcalls, completions to the CQs, the flush) is {@code QpRetirement}'s, which shares those queues
 * and their monitors.
 */
public final class QueuePair extends Resource {
    private final ProtectionDomain pd;
    private final RdmaDevice device;
    private final QpInit init;
    private final QpSpi spi;
    private final QpRetirement retirement;
    private final PostedWork posted;
    private volatile Connection connection;
    private AsyncQueuePair async;
    private final int number;
    private final javax.management.ObjectName mbean;

    private QueuePair(ProtectionDomain pd, QpInit init, WorkRequestValidator validator) {
        super(pd, "QueuePair");
        this.pd = pd;
        this.device = pd.device();
        this.init = init;
        this.posted = new PostedWork(this, init, validator);
        this.retirement = posted.retirement();
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
        return (cq == init.sendCq && posted.awaitsResponses()) || (cq == init.recvCq && posted.awaitsReceives());
    }

    public QpState state() {
        return posted.state();
    }

    /** The connection this QP is bound to, or null. */
    public Connection connection() {
        return connection;
    }

    /** Send WRs posted and not retired. */
    public int sendQueueDepth() {
        return posted.sendDepth();
    }

    /** Receive WRs posted to this QP's own RQ and not consumed. */
    public int recvQueueDepth() {
        return posted.recvDepth();
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
        posted.postSend(spi, wr, false);
    }

    /** Posts a batch, all or nothing: every WR is validated before any is handed to the provider. Same exceptions. */
    public void postSend(SendWr... wrs) {
        posted.postSend(spi, wrs.clone());
    }

    /** Posts a batch in list order. */
    public void postSend(List<SendWr> wrs) {
        postSend(wrs.toArray(new SendWr[0]));
    }

    /** Posts a type 1 window's bind ({@link MemoryWindow#bind}) as one send WR. */
    void postBind(SendWr wr) {
        posted.postSend(spi, wr, true);
    }

    /** Posts one receive without allocating. Exceptions as {@link #postRecv(RecvWr...)}. */
    public void postRecv(RecvWr wr) {
        posted.postRecv(spi, wr);
    }

    /**
     * Posts receives, all or nothing. The wire changes the QP's state at any moment, so a post can find it changed
     * since the caller last looked: receives posted before an orderly close are flushed by it (CLOSING -> IDLE), one
     * posted an instant after it finds IDLE and stays posted for the next connection ({@link #toError()} flushes it).
     *
     * @throws QpStateException             QP not in IDLE or RTS
     * @throws InvalidWorkRequestException  QP_USES_SRQ, TOO_MANY_SGES, REGION_INVALID, PD_MISMATCH,
     *                                      SGE_OUT_OF_BOUNDS, MISSING_LOCAL_WRITE
     * @throws QueueFullException          receive queue full
     * @throws WorkRequestInFlightException a WR object still outstanding
     * @throws ResourceClosedException     the QP is closed
     */
    public void postRecv(RecvWr... wrs) {
        posted.postRecv(spi, wrs.clone());
    }

    public void postRecv(List<RecvWr> wrs) {
        postRecv(wrs.toArray(new RecvWr[0]));
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
        posted.checkResettable();
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
        PostedWork.Change c = posted.transition(t);
        QpState from = c.from();
        QpState to = c.to();
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
        QpState s = posted.state();
        if (s != QpState.IDLE) {
            throw new QpStateException(s, "only an IDLE QP can be connected");
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
            QpState s = posted.state();
            if (s != QpState.IDLE && s != QpState.ERROR) {
                posted.transition(QpTrigger.MODIFY_TO_ERROR);
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
        return "QueuePair[" + number + " " + posted.state() + " context=" + init.context + "]";
    }
}
