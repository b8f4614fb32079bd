package io.jrnic.soft.engine;

import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.MemoryTable;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.DuplexChannel;
import java.util.ArrayDeque;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One queue pair's protocol engine: the send queue, the receive queue, the inbound Read queue (IRD)
 * and the outbound Read/Atomic queue (ORD), the QP state as the wire drives it (RDMAC verbs section
 * 6.2), and the Terminate/flush rules of RFC 5040 section 6. Posting is thread-safe (many threads).
 *
 * <p>One lock, {@link #lock}, guards all engine state (both queues, the ORD/IRD queues, the Transmitter and the
 * Receiver): the event loop of the stream the QP is bound to holds it while it runs the QP (reads, writability,
 * timers, tasks), and a posting thread that finds the QP idle takes it with {@code tryLock} to transmit in place
 * ({@link #kick()}): the message goes from the poster straight into the socket, without waking the loop. Only the
 * event loop ever waits for the lock, so no thread can deadlock on it.
 */
public final class QpEngine {
    /** Engine-side QP state (mirrors {@code io.jrnic.verbs.QpState}). */
    public enum State { IDLE, RTS, CLOSING, TERMINATE, ERROR }

    /** How long the stream may stay half-open after a Terminate was sent. */
    static final long TERMINATE_CLOSE_MILLIS = 2_000;
    /** Receives an SRQ QP holds at most (taken when their message starts; untagged messages never interleave). */
    static final int SRQ_WINDOW = 4;
    /**
     * Read buffer sizes (adaptive between these; the first reads, the MPA set-up frames, are small, and a busy
     * stream's reads grow within a few reads to the maximum).
     */
    static final int RECV_MIN = 512;
    static final int RECV_INITIAL = 2048;
    static final int RECV_MAX = 256 * 1024;

    final MemoryTable table;
    final long pdId;
    final QpListener listener;
    /** This QP's counters (single writer: the event loop); read by stats snapshots from any thread. */
    final QpCounters counters = new QpCounters();
    final int sqDepth;

    /**
     * Posted, not yet seen by the event loop: lock-free bounded array queues (the MPSC queue Netty's own event
     * loops use), sized by the queue depths, no allocation per post and no lock shared with the event loop.
     */
    private final Queue<SqEntry> sqIncoming;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drainAndPump;
    /** Guards every field below and the Transmitter's and Receiver's state (see the class comment). */
    final ReentrantLock lock = new ReentrantLock();

    // guarded by lock (the event loop, or a poster transmitting in place)
    volatile State state = State.IDLE;
    private volatile EventLoop loop;
    volatile Channel channel;
    StreamParams params;
    Transmitter tx;
    Receiver rx;
    /** A polling thread may read the stream itself (null: only the event loop reads it). */
    private volatile ReceiveInPlace rxInPlace;
    /** Posted, not retired, posting order. */
    final ArrayDeque<SqEntry> sq = new ArrayDeque<>();
    /** Posted, not yet started. */
    final ArrayDeque<SqEntry> sqPending = new ArrayDeque<>();
    /** Read Requests / Atomic Requests sent, response awaited (ORD), in order. */
    final ArrayDeque<SqEntry> outstandingReads = new ArrayDeque<>();
    /** Inbound Read / Atomic Requests accepted (IRD), in order. */
    final InboundReadQueue inboundReads = new InboundReadQueue();
    /** The receive queue (QN 0) and its untagged receiver. */
    final ReceiveQueue rq;
    private final RecvInfo recvInfo = new RecvInfo();
    /** Responder: no FPDU may be sent before the initiator's first FPDU arrives (RFC 5044 section 7.1). */
    boolean txGated;
    /** Initiator: RTR (or the first-FPDU delay) still pending. */
    boolean rtrPending;
    boolean rxStopped;
    /** The stream was reset or aborted: its close is an LLP error, not an orderly close. */
    boolean llpFailed;
    /** Initiator: the zero-length READ RTR's response is still due. */
    boolean rtrReadPending;
    /** The layout the peer's Terminate was read in (STRICT or SIW_QUIRK), once one arrived. */
    volatile io.jrnic.rdmap.TerminateDecoder.Mode receivedTerminateLayout = io.jrnic.rdmap.TerminateDecoder.Mode.STRICT;
    private Runnable firstFpduCallback;
    private boolean closeRequested;
    /** Flushing the SQ waits until no zero-copy WR's memory is still in the outbound buffer. */
    private boolean sendFlushDeferred;

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
        this.sqIncoming = PlatformDependent.newFixedMpscQueue(Math.max(2, this.sqDepth));
    }

    public State state() {
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

    // ---------------------------------------------------------------- posting (any thread)

    /** Queues a send work request; it runs in posting order once the QP is bound to a stream. */
    public void postSend(SqEntry e) {
        enqueueSend(e);
        kick();
    }

    /** Queues without waking the event loop: a batch post calls {@link #kick()} once at the end. */
    public void enqueueSend(SqEntry e) {
        if (!sqIncoming.offer(e)) {
            throw new IllegalStateException("send queue over its depth " + sqDepth);
        }
    }

    /** Queues a receive; incoming untagged messages consume receives in posting order (RFC 5041 section 5.3). */
    public void postRecv(RqEntry e) {
        enqueueRecv(e);
        kick();
    }

    public void enqueueRecv(RqEntry e) {
        if (!rq.offer(e)) {
            throw new IllegalStateException("receive queue over its depth");
        }
    }

    /**
     * Gets what was queued going: transmitted in place by this thread when the QP is idle (no wake-up of the
     * event loop, the completions of copied messages polled at once), else by the event loop.
     */
    public void kick() {
        if (!transmitInPlace()) {
            scheduleDrain();
        }
    }

    /**
     * Runs the queued work on the posting thread if the loop is not running the QP and nothing of it waits in
     * the channel: receives go to the untagged receiver, sends are encoded and written to the socket by the
     * {@link Transmitter} (at most one batch). True when nothing is left for the event loop.
     */
    private boolean transmitInPlace() {
        Transmitter t = tx;
        EventLoop l = loop;
        if (t == null || l == null || !t.inPlaceCapable() || l.inEventLoop() || drainScheduled.get()
                || !lock.tryLock()) {
            return false;
        }
        try {
            if (state != State.RTS || tx != t) {
                return false;
            }
            drainRecvs();
            drainSends();
            return t.pumpInPlace();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Receives in place: the calling thread (polling a completion queue) reads what the stream holds and runs the
     * Receiver on it, then transmits in place what that asked for (Read Responses) and retires what it finished,
     * so a busy-polling consumer needs no wake-up of the event loop. Only between the loop's reads, in RTS once the
     * first FPDUs were exchanged, never on the loop itself. True when bytes were read.
     */
    public boolean receiveInPlace() {
        ReceiveInPlace r = rxInPlace;
        EventLoop l = loop;
        if (r == null || l == null || l.inEventLoop()) {
            return false;
        }
        r.polled();
        if (!lock.tryLock()) {
            return false;
        }
        try {
            if (!receivesInPlace(r)) {
                r.giveBack(); // Terminate, close, end of stream: the loop reads what follows
                return false;
            }
            int n = r.read();
            if (n == ReceiveInPlace.FAILED) {
                // reset under our read (the loop will only see the end of the stream): an LLP error; the loop
                // closes the stream holding the lock, so no other in-place read or write meets the closed socket
                llpFailed = true;
                l.execute(() -> locked(channel::close));
                return false;
            }
            if (n == ReceiveInPlace.NOTHING) {
                if (r.gate().ended()) {
                    r.giveBack(); // the loop sees the end too and reports it
                }
                return false;
            }
            counters.inc(Counter.RX_IN_PLACE);
            counters.add(Counter.RX_IN_PLACE_BYTES, n);
            r.readInPlace();
            if (drainScheduled.get() || state != State.RTS || !tx.pumpInPlace()) {
                scheduleDrain(); // the loop finishes what the bytes asked for
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: whether {@code r} (still this QP's) may read: RTS, receiving, first FPDUs exchanged. */
    boolean receivesInPlace(ReceiveInPlace r) {
        return rxInPlace == r && state == State.RTS && !rxStopped && !txGated && !rtrPending;
    }

    /**
     * The consumer armed a CQ of this QP to block: if pollers had taken the stream's reads from the event loop
     * (see {@link ReceiveInPlace}), the loop reads again. Any thread.
     */
    public void pollingStops() {
        ReceiveInPlace r = rxInPlace;
        if (r != null) {
            r.giveBack();
        }
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

    private void scheduleDrain() {
        EventLoop l = loop;
        if (l != null && drainScheduled.compareAndSet(false, true)) {
            l.execute(drainTask);
        }
    }

    private void drainAndPump() {
        drainScheduled.set(false);
        lock.lock();
        try {
            drainRecvs();
            drainSends();
            if (state == State.ERROR) {
                flushAll();
            } else if (tx != null) {
                tx.pump();
            }
        } finally {
            lock.unlock();
        }
    }

    void drainSends() {
        SqEntry e;
        while ((e = sqIncoming.poll()) != null) {
            sq.add(e);
            sqPending.add(e);
        }
    }

    /** Moves posted receives into the DDP untagged receiver (QN 0). */
    void drainRecvs() {
        rq.drain();
    }

    /** The layout the peer's Terminate was read in: STRICT (RFC 5040 section 4.8) or SIW_QUIRK. */
    public io.jrnic.rdmap.TerminateDecoder.Mode receivedTerminateLayout() {
        return receivedTerminateLayout;
    }

    // ---------------------------------------------------------------- binding

    /**
     * Binds the QP to an MPA stream whose set-up is complete: installs the data-phase handlers after
     * {@code afterHandler} (removed), moves to RTS and reports CONNECTED. Runs on the channel's loop.
     *
     * @param leftover bytes that followed the set-up frame (fed to the Receiver); released here
     * @param onFirstFpdu run when the first FPDU arrives (responder: the stream is in RDMA mode)
     */
    public void bind(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu) {
        lock.lock();
        try {
            bindLocked(ch, p, afterHandler, leftover, onFirstFpdu);
        } finally {
            lock.unlock();
        }
    }

    private void bindLocked(Channel ch, StreamParams p, String afterHandler, ByteBuf leftover, Runnable onFirstFpdu) {
        if (state != State.IDLE) {
            if (leftover != null) {
                leftover.release();
            }
            throw new IllegalStateException("QP is " + state + ", not IDLE");
        }
        this.channel = ch;
        this.loop = ch.eventLoop();
        this.params = p;
        this.tx = new Transmitter(this, ch, p);
        this.rx = new Receiver(this, p);
        this.txGated = !p.initiator();
        this.rtrPending = p.initiator() && (p.rtr() != io.jrnic.mpa.RtrType.NONE || p.firstFpduDelayMillis() > 0);
        this.firstFpduCallback = onFirstFpdu;
        this.rxStopped = false;
        this.llpFailed = false;
        this.rtrReadPending = false;
        this.closeRequested = false;
        rq.rebind();
        // the data phase reads 512 B to 256 KiB at a time when the channel was made with a LoopReadGate (its
        // allocator); an FPDU cut by a chunk boundary costs a copy into the decoder's staging buffer
        ChannelPipeline pl = ch.pipeline();
        pl.replace(afterHandler, "receiver", rx);
        tx.enableInPlace(rx);
        ReceiveInPlace rip = tx.inPlaceCapable() ? ReceiveInPlace.of(this, ch, rx) : null;
        if (rip != null) {
            rip.gate().attach(lock);
        }
        rxInPlace = rip;
        state = State.RTS;
        listener.transition(Trigger.CONNECTED, null, false);
        drainRecvs();
        drainSends();
        if (p.initiator()) {
            if (p.firstFpduDelayMillis() > 0) {
                loop.schedule(() -> locked(this::sendRtr), p.firstFpduDelayMillis(), TimeUnit.MILLISECONDS);
            } else {
                sendRtr();
            }
        }
        if (leftover != null) {
            try {
                if (leftover.isReadable()) {
                    rx.feed(leftover);
                }
            } finally {
                leftover.release();
            }
        }
        scheduleDrain();
    }

    private void sendRtr() {
        if (state != State.RTS && state != State.CLOSING) {
            return;
        }
        rtrPending = false;
        tx.sendRtr(params.rtr());
        tx.pump();
    }

    /** The initiator's first FPDU arrived: the responder may transmit (RFC 5044 section 7.1). */
    void firstFpduReceived() {
        if (txGated) {
            txGated = false;
            Runnable cb = firstFpduCallback;
            firstFpduCallback = null;
            if (cb != null) {
                cb.run();
            }
        }
    }

    boolean txOpen() {
        return (state == State.RTS || state == State.CLOSING) && !txGated && !rtrPending;
    }

    // ---------------------------------------------------------------- retirement

    /** Retires finished send WRs from the head, in posting order. */
    void retireSends() {
        SqEntry e;
        while ((e = sq.peek()) != null && e.done) {
            sq.poll();
            boolean ok = listener.sendRetired(e, e.status, e.byteLength, null, false);
            if (!ok && (state == State.RTS || state == State.CLOSING)) {
                terminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC), null, null);
                return;
            }
        }
        if (closeRequested && sq.isEmpty() && state == State.CLOSING) {
            tx.flushNow();
            channel.close();
        }
    }

    /**
     * A zero-copy WR's bytes left the outbound buffer (or failed to): retire what is done, or run the SQ flush
     * that waited for the memory to be released ({@code drained}: nothing is on the wire any more).
     */
    void wireDrained(boolean drained) {
        if (sendFlushDeferred) {
            if (drained) {
                sendFlushDeferred = false;
                flushSends();
            }
        } else {
            retireSends();
        }
    }

    /** Hands completed receives of QN 0 back in MSN order. */
    void retireRecvs() {
        RqEntry e;
        while ((e = rq.pollCompleted(rx.untaggedCompletion)) != null) {
            RecvInfo info = recvInfo.clear();
            info.byteLength = (int) rx.untaggedCompletion.messageLength();
            e.fillInfo(info);
            boolean ok = listener.recvRetired(e, Status.SUCCESS, info);
            if (!ok && (state == State.RTS || state == State.CLOSING)) {
                terminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC), null, null);
                return;
            }
        }
    }

    // ---------------------------------------------------------------- errors (RFC 5040 section 6)

    /**
     * This side found an error: send {@code t}, enter TERMINATE, retire {@code failingRq} with
     * {@code rqStatus} when it is the oldest receive, close the stream (then ERROR and flush).
     */
    void terminate(Terminate t, RqEntry failingRq, Status rqStatus) {
        if (state != State.RTS && state != State.CLOSING) {
            return;
        }
        rxStopped = true;
        state = State.TERMINATE;
        tx.sendTerminate(t);
        listener.transition(Trigger.TERMINATE_SENT, t, false);
        if (failingRq != null && rq.isOldest(failingRq)) {
            retireOldestRecv(rqStatus, t, false);
        }
        closeAfterTerminate();
    }

    /**
     * RFC 5040 section 6: the stream closes after a Terminate. Closing at once with unread input would
     * reset the connection and could destroy the Terminate in flight, so the output is shut (FIN after
     * the Terminate), input is discarded until the peer closes, and a timer closes in any case.
     */
    private void closeAfterTerminate() {
        if (channel instanceof DuplexChannel d && d.isActive()) {
            d.shutdownOutput();
            loop.schedule(() -> {
                channel.close();
            }, TERMINATE_CLOSE_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            channel.close();
        }
    }

    private void retireOldestRecv(Status status, Terminate t, boolean received) {
        RqEntry e = rq.pollFailed(rx.untaggedCompletion);
        RecvInfo info = recvInfo.clear();
        info.byteLength = (int) rx.untaggedCompletion.messageLength();
        info.terminate = t;
        info.terminateReceived = received;
        listener.recvRetired(e, status, info);
    }

    /** A Terminate arrived (RFC 5040 section 4.8): ERROR, the WR it names fails, the rest flush. */
    void terminateReceived(Terminate t) {
        if (state != State.RTS && state != State.CLOSING && state != State.TERMINATE) {
            return;
        }
        rxStopped = true;
        state = State.ERROR;
        listener.transition(Trigger.TERMINATE_RECEIVED, t, true);
        // in posting order: the WR the Terminate names fails with its status, the others flush
        boolean named = false;
        SqEntry e;
        while ((e = sq.poll()) != null) {
            if (!named && TerminateMatch.names(t, e)) {
                named = true;
                listener.sendRetired(e, Status.ofReceivedTerminate(t.layer(), t.errorType()), 0, t, true);
            } else {
                listener.sendRetired(e, Status.WR_FLUSH_ERROR, 0, null, false);
            }
        }
        flushAll();
        channel.close();
    }

    /** The TCP stream closed (RFC 5040 section 6: LLP close or loss). */
    void streamClosed() {
        switch (state) {
            case TERMINATE -> {
                state = State.ERROR;
                listener.transition(Trigger.TERMINATE_DONE, null, false);
                flushAll();
            }
            case RTS, CLOSING -> {
                boolean clean = !llpFailed && sq.isEmpty() && sqIncoming.isEmpty();
                if (clean) {
                    if (state == State.RTS) {
                        state = State.CLOSING;
                        listener.transition(Trigger.CLOSE_STARTED, null, false);
                    }
                    state = State.IDLE;
                    listener.transition(Trigger.CLOSE_COMPLETED, null, false);
                    flushRecvs();
                } else {
                    state = State.ERROR;
                    listener.transition(Trigger.LLP_ERROR, null, false);
                    flushAll();
                }
            }
            default -> {
            }
        }
        if (tx != null) {
            tx.releaseBuffers();
        }
    }

    /** Consumer disconnect (RFC 5040 section 6: orderly close): CLOSING, then close once the SQ drained. */
    public void disconnect() {
        EventLoop l = loop;
        if (l == null) {
            return;
        }
        l.execute(() -> locked(() -> {
            if (state == State.RTS) {
                state = State.CLOSING;
                listener.transition(Trigger.CLOSE_STARTED, null, false);
                closeRequested = true;
                retireSends();
            }
        }));
    }

    /**
     * The consumer moved the QP to ERROR (state already applied by the caller): send a Terminate if
     * connected (RDMAP local catastrophic), close the stream, flush every WR with WR_FLUSH_ERROR.
     */
    public void abort() {
        EventLoop l = loop;
        if (l == null) {
            state = State.ERROR;
            flushAll();
            return;
        }
        l.execute(() -> locked(() -> {
            State s = state;
            state = State.ERROR;
            flushAll();
            if ((s == State.RTS || s == State.CLOSING) && channel.isActive()) {
                rxStopped = true;
                tx.sendTerminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC));
                closeAfterTerminate();
            } else {
                channel.close();
            }
        }));
    }

    /** Abortive close (connection manager abort): RST instead of FIN, reported as an LLP error. */
    public void abortStream() {
        EventLoop l = loop;
        if (l == null) {
            return;
        }
        l.execute(() -> locked(() -> {
            if (channel.isActive()) {
                llpFailed = true;
                channel.config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
                channel.close();
            }
        }));
    }

    /**
     * The transmitter's outbound buffer stayed above its low water mark for the transmit stall timeout (the peer
     * does not drain the stream): the stream is reset and lost as an LLP error (RFC 5044 section 8); the close
     * takes the QP to ERROR and flushes every WR. No Terminate: it could not pass the closed window. On the loop.
     */
    void transmitStalled(long timeoutMillis) {
        org.slf4j.LoggerFactory.getLogger("io.jrnic").warn(
                "stream {} not drained by the peer for {} ms (transmit stall timeout): reset, QP to ERROR",
                channel.remoteAddress(), timeoutMillis);
        llpFailed = true;
        channel.config().setOption(io.netty.channel.ChannelOption.SO_LINGER, 0);
        channel.close();
    }

    /** Forgets the stream after RESET_TO_IDLE (queues are empty). */
    public void reset() {
        state = State.IDLE;
        ReceiveInPlace r = rxInPlace;
        rxInPlace = null;
        if (r != null) {
            r.gate().attach(null);
        }
    }

    /**
     * Retires every remaining send and receive with WR_FLUSH_ERROR, in posting order. While zero-copy WRs
     * still have bytes in an open channel's outbound buffer (their memory is still read), the sends are
     * retired once those bytes have left it: a flushed WR's memory is the consumer's again.
     */
    void flushAll() {
        sqPending.clear();
        outstandingReads.clear();
        inboundReads.clear();
        flushRecvs();
        if (tx != null && tx.onWire() > 0 && channel.isOpen()) {
            tx.flushNow(); // writes the promise the deferred flush waits for
            sendFlushDeferred = true;
        } else if (!sendFlushDeferred) {
            flushSends();
        }
    }

    private void flushSends() {
        drainSends();
        SqEntry e;
        while ((e = sq.poll()) != null) {
            // a WR that already failed locally keeps its status; everything else is flushed
            boolean failed = e.done && e.status != Status.SUCCESS;
            listener.sendRetired(e, failed ? e.status : Status.WR_FLUSH_ERROR, 0, null, false);
        }
        while ((e = sqIncoming.poll()) != null) {
            listener.sendRetired(e, Status.WR_FLUSH_ERROR, 0, null, false);
        }
        sqPending.clear();
    }

    private void flushRecvs() {
        RqEntry e;
        while ((e = rq.pollFlushed()) != null) {
            listener.recvRetired(e, Status.WR_FLUSH_ERROR, recvInfo.clear());
        }
        if (rx != null) {
            rq.forgetBuffers(rx.untaggedCompletion);
        }
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
        return "QpEngine[" + state + " pd=" + pdId + " sq=" + sq.size() + " rq=" + rq.held() + "]";
    }
}
