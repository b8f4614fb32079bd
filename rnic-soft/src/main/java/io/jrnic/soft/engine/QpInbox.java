package io.jrnic.soft.engine;

import io.jrnic.verbs.QpState;
import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What other threads hand to a QP's owner (spec-notes/engine.md, "post" and "inbound data"), as Aeron's proxies and
 * command queues: posted send WRs go into a bounded MPSC ring (the queue Netty's own event loops use; sized by the send
 * depth, nothing allocated per post, no lock shared with the loop), posted receives into the receive queue's own
 * incoming queue; {@link #kick()} then gets them going: the caller takes the QP's ownership when it is free and
 * transmits in place, else one drain task goes to the owner's loop ({@code drainScheduled}: at most one outstanding;
 * the task clears it before it drains, so a post after the clear schedules again). A polling thread's offer to
 * receive in place comes through here too. Any thread.
 */
public final class QpInbox {
    private final QpEngine qp;
    private final int sqDepth;
    private final Queue<SqEntry> sqIncoming;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drainAndPump;
    /** Null, the QP's {@link StreamWait} (made at the first {@link #inputWaiter}), or {@link #WAIT_CLOSED}. */
    private final java.util.concurrent.atomic.AtomicReference<Object> streamWait =
            new java.util.concurrent.atomic.AtomicReference<>();
    private static final Object WAIT_CLOSED = new Object();
    /** The owner's drain, made once: a method reference per drain is 16 B whenever the JIT does not scalar-replace it. */
    private final Runnable drainOwned;

    QpInbox(QpEngine qp, int sqDepth) {
        this.qp = qp;
        this.sqDepth = sqDepth;
        this.sqIncoming = PlatformDependent.newFixedMpscQueue(Math.max(2, sqDepth));
        this.drainOwned = qp::drainAndPump;
    }

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
        if (!qp.rq.offer(e)) {
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
     * {@link Transmitter} (at most four 64 KiB batches). True when nothing is left for the event loop.
     */
    private boolean transmitInPlace() {
        Transmitter t = qp.tx;
        EventLoop l = qp.loop;
        if (t == null || l == null || !t.inPlaceCapable() || l.inEventLoop() || drainScheduled.get()
                || !qp.lock.tryLock()) {
            return false;
        }
        try {
            if (qp.state != QpState.RTS || qp.tx != t) {
                return false;
            }
            qp.drainRecvs();
            qp.drainSends();
            return t.pumpInPlace();
        } finally {
            qp.lock.unlock();
        }
    }

    /**
     * Receives in place: the calling thread (polling a completion queue) reads what the stream holds and runs the
     * Receiver on it, then transmits in place what that asked for (Read Responses) and retires what it finished,
     * so a busy-polling consumer needs no wake-up of the event loop. Only between the loop's reads, in RTS once the
     * first FPDUs were exchanged, never on the loop itself. True when bytes were read.
     */
    public boolean receiveInPlace() {
        ReceiveInPlace r = qp.rxInPlace();
        return r != null && r.receive();
    }

    /** Under the lock, after a poller's read: what the bytes asked for goes out in place, else the loop sends it. */
    void pumpInPlaceOrDrain() {
        if (drainScheduled.get() || qp.state != QpState.RTS || !qp.tx.pumpInPlace()) {
            scheduleDrain(); // the loop finishes what the bytes asked for
        }
    }


    /**
     * How a consumer blocked on a CQ of this QP waits on its socket itself ({@link StreamWait}), or null: not on an
     * epoll stream that receives in place, not on a virtual thread. Made at the
     * first call (two descriptors, kept until the QP is destroyed). Any thread.
     */
    public io.jrnic.verbs.spi.InputWaiter inputWaiter() {
        if (!Diagnostics.DIRECT_WAIT || StreamWait.onVirtualThread()) {
            return null;
        }
        Object o = streamWait.get();
        if (o == null && qp.rxInPlace() != null) {
            StreamWait w = StreamWait.open(qp);
            if (w != null && !streamWait.compareAndSet(null, w)) {
                w.close(); // another thread made one first, or the QP was destroyed
            }
            o = streamWait.get();
        }
        return o instanceof StreamWait w ? w : null;
    }

    /** The QP is destroyed: the blocked consumer's descriptors go (now, or when it leaves). Any thread. */
    public void closeInputWaiter() {
        if (streamWait.getAndSet(WAIT_CLOSED) instanceof StreamWait w) {
            w.close();
        }
    }

    /**
     * The consumer armed a CQ of this QP to block: if pollers had taken the stream's reads from the event loop
     * (see {@link ReceiveInPlace}), the loop reads again. Any thread.
     */
    public void pollingStops() {
        ReceiveInPlace r = qp.rxInPlace();
        if (r != null) {
            r.giveBack();
        }
    }



    void scheduleDrain() {
        EventLoop l = qp.loop;
        if (l != null && drainScheduled.compareAndSet(false, true)) {
            l.execute(drainTask);
        }
    }

    private void drainAndPump() {
        drainScheduled.set(false);
        qp.locked(drainOwned);
    }


    /** The owner takes the next posted send WR (under the lock), or null. */
    SqEntry takePosted() {
        return sqIncoming.poll();
    }

    /** Nothing posted waits for the loop (the lock-free incoming queue is empty). */
    boolean nothingPosted() {
        return sqIncoming.isEmpty();
    }

    /** Flushes the sends still in the incoming queue (WR_FLUSH_ERROR, posting order). */
    void flushPosted() {
        SqEntry e;
        while ((e = sqIncoming.poll()) != null) {
            qp.listener.sendRetired(e, Status.WR_FLUSH_ERROR, 0, null, false);
        }
    }
}
