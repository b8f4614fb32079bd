package io.jrnic.soft.engine;

import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.QpStateMachine;
import io.jrnic.verbs.QpTrigger;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One queue pair's protocol engine: the send queue, the receive queue, the inbound Read queue (IRD)
 * and the outbound Read/Atomic queue (ORD), the QP state as the wire drives it (RDMAC verbs section
 * 6.2). {@link SendWork} holds the send queue and the ORQ (fence, ORD), {@link StreamCondition} what happened to the
 * current stream, {@link StreamBinding} takes up a stream and holds MPA's timing rule for the first FPDUs (RFC 5044
 * section 7.1), {@link StreamTeardown} the Terminate, close and flush rules (RFC 5040 sections 6.2 and 7),
 * {@link ReceiveInPlace} a polling thread's reads. Posting is thread-safe (many threads).
 *
 * <p>The QP's owner (spec-notes/engine.md): whoever holds {@link #lock}, its ownership token, does all of the QP's work
 * and nobody else touches its state. The event loop of the stream the QP is bound to holds it while it runs the QP
 * (reads, writability, timers, tasks); a posting thread that finds the QP idle takes it with {@code tryLock} to
 * transmit in place ({@link QpInbox#kick()}), a polling thread the same way to receive in place. Only the event loop
 * ever waits for it, so no thread can deadlock on it. This class alone writes the QP's state, and each collaborator
 * its own ({@code EngineOwnershipRuleTest}).
 */
public final class QpEngine {
    final MemoryTable table;
    final long pdId;
    final QpListener listener;
    /** This QP's counters (single writer: the event loop); read by stats snapshots from any thread. */
    final QpCounters counters = new QpCounters();
    final int sqDepth;

    /** What other threads hand to the owner: posted WRs, kicks, pollers' offers (spec-notes/engine.md). */
    private final QpInbox inbox;
    /** Guards every field below and the Transmitter's and Receiver's state (see the class comment). */
    final ReentrantLock lock = new ReentrantLock();

    // guarded by lock (the event loop, or a poster transmitting in place)
    /** The QP's state: verbs' QpState, changed only through verbs' QpStateMachine (one table for both layers). */
    volatile QpState state = QpState.IDLE;
    volatile EventLoop loop;
    volatile Channel channel;
    StreamParams params;
    Transmitter tx;
    Receiver rx;
    /** A polling thread may read the stream itself (null: only the event loop reads it). */
    volatile ReceiveInPlace rxInPlace;
    /** The send queue ring and the ORQ (within ORD): which WR starts next, which retire. */
    final SendWork sends;
    /** Inbound Read / Atomic Requests accepted (IRD), in order. */
    final InboundReadQueue inboundReads = new InboundReadQueue();
    /** The receive queue (QN 0) and its untagged receiver. */
    final ReceiveQueue rq;
    final RecvInfo recvInfo = new RecvInfo();
    /** The current stream's condition: receiving stopped, LLP failed, RTR READ response due. */
    final StreamCondition stream = new StreamCondition();
    /** The layout the peer's Terminate was read in (STRICT or SIW_QUIRK), once one arrived. */
    volatile io.jrnic.rdmap.TerminateDecoder.Mode receivedTerminateLayout = io.jrnic.rdmap.TerminateDecoder.Mode.STRICT;
    /** Binding to the stream, the first-FPDU timing rule (RFC 5044 section 7.1). */
    final StreamBinding binding = new StreamBinding(this);
    /** Terminate, close, loss and flush (RFC 5040 sections 6.2 and 7). */
    final StreamTeardown teardown = new StreamTeardown(this);

    public QpEngine(MemoryTable table, long pdId, int sqDepth, int rqDepth, QpListener listener) {
        this(table, pdId, sqDepth, rqDepth, null, listener);
    }

    /** A QP whose receives come from {@code srq} (FIFO, shared, thread-safe). */
    public QpEngine(MemoryTable table, long pdId, int sqDepth, int rqDepth, java.util.Queue<RqEntry> srq,
            QpListener listener) {
        this.table = table;
        this.pdId = pdId;
        this.sqDepth = Math.max(1, sqDepth);
        this.listener = listener;
        this.rq = new ReceiveQueue(rqDepth, srq);
        this.inbox = new QpInbox(this, this.sqDepth);
        this.sends = new SendWork(this.sqDepth, counters);
    }

    public QpState state() {
        return state;
    }

    public QpCounters counters() {
        return counters;
    }

    /** The stream the QP is (or was last) bound to, or null. */
    public Channel channel() {
        return channel;
    }

    public long pdId() {
        return pdId;
    }

    public MemoryTable table() {
        return table;
    }

    /** The stream's parameters once bound, else null. */
    public StreamParams params() {
        return params;
    }

    // ---------------------------------------------------------------- the owner's side of the hand-offs

    /** Under the lock: whether {@code r} (still this QP's) may read: RTS, receiving, first FPDUs exchanged. */
    boolean receivesInPlace(ReceiveInPlace r) {
        return rxInPlace == r && state == QpState.RTS && !stream.rxStopped() && binding.firstFpdusExchanged();
    }

    /** Whether {@code ch} is the stream this QP is bound to now (not a previous one it was reset from). */
    boolean boundTo(Channel ch) {
        return channel == ch;
    }

    /** A polling thread may read the stream in place through this, or null. */
    ReceiveInPlace rxInPlace() {
        return rxInPlace;
    }

    /** The Receiver fed the bytes of an event-loop read: a polling thread may read again. */
    void loopReadFed() {
        ReceiveInPlace r = rxInPlace;
        if (r != null) {
            r.gate().fed();
            r.loopRead();
        }
    }

    /** Runs {@code r} holding the QP's lock (event loop tasks and timers). */
    void locked(Runnable r) {
        lock.lock();
        try {
            r.run();
        } finally {
            lock.unlock();
        }
    }

    /** Takes what posters handed over into the send queue ring. Under the lock. */
    void drainSends() {
        SqEntry e;
        while ((e = inbox.takePosted()) != null) {
            sends.add(e);
        }
    }

    /** Moves posted receives into the DDP untagged receiver (QN 0). Under the lock. */
    void drainRecvs() {
        rq.drain();
    }

    /**
     * The loop's drain task: takes what was posted, then sends; in ERROR flushes; in IDLE flushes the sends (a post
     * the verbs layer accepted in RTS that reached the owner after the stream closed in order). Under the lock.
     */
    void drainAndPump() {
        drainRecvs();
        drainSends();
        if (state == QpState.ERROR) {
            teardown.flushAll();
        } else if (state == QpState.IDLE) {
            teardown.flushLateSends();
        } else if (tx != null) {
            tx.pump();
        }
    }

    /** What posters and pollers hand to this QP's owner. */
    public QpInbox inbox() {
        return inbox;
    }

    /** The layout the peer's Terminate was read in: STRICT (RFC 5040 section 4.8) or SIW_QUIRK. */
    public io.jrnic.rdmap.TerminateDecoder.Mode receivedTerminateLayout() {
        return receivedTerminateLayout;
    }

    // ---------------------------------------------------------------- binding (StreamBinding)

    /**
     * Binds the QP to an MPA stream whose set-up is complete: installs the data-phase handlers after
     * {@code afterHandler} (removed), moves to RTS and reports CONNECTED. Runs on the channel's loop.
     *
     * @param leftover bytes that followed the set-up frame (fed to the Receiver); released here
     * @param onFirstFpdu run when the first FPDU arrives (responder: the stream is in RDMA mode)
     */
    public void bind(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu) {
        bind(ch, p, afterHandler, leftover, onFirstFpdu, null);
    }

    /**
     * The same, with {@code onStreamEnd} run on the loop once the stream's end was processed (the QP left RTS, its
     * work requests retired or flushed): the connection manager reports the disconnect then, not before.
     */
    public void bind(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu,
            Runnable onStreamEnd) {
        binding.bind(ch, p, afterHandler, leftover, onFirstFpdu, onStreamEnd);
    }

    /** Whether FPDUs may go out: RTS or CLOSING, and MPA's timing rule passed (RFC 5044 section 7.1). */
    boolean txOpen() {
        return (state == QpState.RTS || state == QpState.CLOSING) && binding.firstFpdusExchanged();
    }

    /**
     * Forgets the stream after RESET_TO_IDLE (queues are empty): on the loop, after what the consumer asked before
     * (its modify to ERROR runs there too), waiting for it; now when never bound or the loop is gone.
     */
    public void reset() {
        EventLoop l = loop;
        if (l == null || l.inEventLoop() || l.isShuttingDown()) {
            binding.unbind();
        } else {
            l.submit(binding::unbind).syncUninterruptibly();
        }
    }

    // ---------------------------------------------------------------- retirement

    /** Retires finished send WRs from the head, in posting order. */
    void retireSends() {
        SqEntry e;
        while ((e = sends.retireDone()) != null) {
            boolean ok = listener.sendRetired(e, e.status, e.byteLength, null, false);
            if (!ok && (state == QpState.RTS || state == QpState.CLOSING)) {
                teardown.terminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC), null, null);
                return;
            }
        }
        teardown.sendsRetired();
    }

    /** Hands completed receives of QN 0 back in MSN order. */
    void retireRecvs() {
        RqEntry e;
        while ((e = rq.pollCompleted(rx.untaggedCompletion)) != null) {
            RecvInfo info = recvInfo.clear();
            info.byteLength = (int) rx.untaggedCompletion.messageLength();
            e.fillInfo(info);
            boolean ok = listener.recvRetired(e, Status.SUCCESS, info);
            if (!ok && (state == QpState.RTS || state == QpState.CLOSING)) {
                teardown.terminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC), null, null);
                return;
            }
        }
    }

    // ---------------------------------------------------------------- the owner's state, changed only here

    /**
     * The wire moved the QP: the one place its state changes, through verbs' transition table (RDMAC verbs section
     * 6.2, {@link QpStateMachine}), then reported to the listener. Under the QP's ownership.
     */
    void apply(QpTrigger t, Terminate term, boolean received) {
        state = QpStateMachine.next(state, t);
        listener.transition(t, term, received);
    }

    /**
     * A consumer's request that the verbs layer already applied and reported (MODIFY_TO_ERROR, RESET_TO_IDLE): the
     * same table, no report. Under the QP's ownership.
     */
    void applyConsumers(QpTrigger t) {
        state = QpStateMachine.next(state, t);
    }

    /** The peer's Terminate was read in layout {@code m}. */
    void terminateReadIn(io.jrnic.rdmap.TerminateDecoder.Mode m) {
        receivedTerminateLayout = m;
    }

    /** {@link StreamBinding}: the stream this QP now runs on, its halves, and a fresh start of its flags. */
    void attach(Channel ch, StreamParams p, Transmitter t, Receiver r) {
        channel = ch;
        loop = ch.eventLoop();
        params = p;
        tx = t;
        rx = r;
        stream.fresh();
    }

    /** {@link StreamBinding}: polling threads may read the stream in place through {@code r} (null: they may not). */
    void receiveInPlaceWith(ReceiveInPlace r) {
        rxInPlace = r;
    }

    // ---------------------------------------------------------------- what TX and RX ask of the owner

    /**
     * Under the lock, after a read: what the reads may have left for the sending side (answers to Read or Atomic
     * Requests, WRs to start or retire: a Read Response completed one); in RTS with none of it there is nothing to pump.
     */
    boolean sendingSideHasWork() {
        return tx != null && !(state == QpState.RTS && sends.allRetired() && inboundReads.isEmpty() && tx.nothingPending());
    }

    /** RX: the loop's reads, which left the sending side work, are done for now: send what they asked for. On the loop. */
    void readComplete() {
        lock.lock();
        try {
            if (sendingSideHasWork()) {
                tx.pump();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The channel turned writable: a backpressure stall ends, sending goes on. On the loop. */
    void writable() {
        locked(() -> {
            tx.writable();
            tx.pump();
        });
    }

    // ---------------------------------------------------------------- teardown (StreamTeardown)

    /** Consumer disconnect (RFC 5040 section 6.2.1, orderly close): CLOSING, then close once the SQ drained. */
    public void disconnect() {
        teardown.disconnect();
    }

    /** The consumer moved the QP to ERROR: Terminate if connected, close, flush (see {@link StreamTeardown}). */
    public void abort() {
        teardown.abort();
    }

    /** Abortive close (connection manager abort): RST instead of FIN, reported as an LLP error. */
    public void abortStream() {
        teardown.abortStream();
    }

    /** Runs {@code r} on the QP's event loop holding the QP's lock (or now, when never bound). */
    public void execute(Runnable r) {
        EventLoop l = loop;
        if (l == null) {
            r.run();
        } else {
            l.execute(() -> locked(r));
        }
    }

    @Override
    public String toString() {
        return "QpEngine[" + state + " pd=" + pdId + " sq=" + sends.size() + " rq=" + rq.held() + "]";
    }
}
