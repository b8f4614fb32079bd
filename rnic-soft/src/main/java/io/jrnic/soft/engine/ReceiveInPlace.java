package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Receive in place: a thread polling the QP's completion queue reads the stream itself (one socket read into a
 * per-thread buffer, fed to the {@link Receiver} under the QP's lock), so a busy-polling consumer does not wait
 * for the event loop to be woken and scheduled. The {@link LoopReadGate} keeps its reads and the loop's in stream
 * order, and the stream's end (or a read error) seen by the loop closes the gate before the loop closes the
 * socket. Only on an epoll stream whose pipeline holds just the Receiver; {@link Diagnostics} can
 * turn it off.
 */
final class ReceiveInPlace {
    /** A polling thread's read buffer (one per thread, kept). */
    static final int IN_PLACE_READ_MAX = 256 * 1024;
    /**
     * One read buffer per polling thread, 256 KiB (the decoder copies what it keeps; a poller reads again soon):
     * a JDK direct buffer, so its memory goes with the thread (its Cleaner), not with a release nobody would call.
     */
    private static final ThreadLocal<ReadBuffer> BUFFER = ThreadLocal.withInitial(ReadBuffer::new);

    /** A polling thread's read buffer; busy while its bytes are fed (a callback that polls again reads nothing). */
    private static final class ReadBuffer {
        final ByteBuf buf = Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(IN_PLACE_READ_MAX));
        boolean busy;
    }

    /** A read's outcome besides a byte count: nothing there, or the stream failed under the read. */
    static final int NOTHING = 0;
    static final int FAILED = -1;

    /**
     * Reads one turn makes at most while each takes all it asked for, and the octets after which it stops: bounds how
     * long a turn holds the QP's lock (the loop's watchdog and tasks, a posting thread wait for it).
     */
    static final int READS_PER_TURN = 8;
    static final int OCTETS_PER_TURN = 256 * 1024;

    /** In-place reads with data in a row (the loop fed nothing in between) after which the loop stops reading. */
    static final int TAKE_OVER_STREAK = 4;
    /** The loop reads again once nobody polled for this long (a consumer that stopped without arming its CQ). */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final QpEngine qp;
    private final EventLoop loop;
    private final AbstractEpollStreamChannel ch;
    private final LoopReadGate gate;
    private final Receiver rx;
    private final Runnable stopLoopReads = this::stopLoopReads;
    private final Runnable watchdog = this::watch;
    private final Runnable giveBackTask = this::giveBackOnLoop;

    /**
     * A consumer polled (or a waiter came or went) since the watchdog's last turn: set by any thread with a release
     * store (no clock read, no fence), read and cleared by the watchdog.
     */
    private final AtomicBoolean polledSinceTurn = new AtomicBoolean();
    /** Under the QP's lock: successive in-place reads that found data. */
    private int streak;
    /** The loop does not read the socket (auto-read off): the pollers do. Written under the QP's lock. */
    private volatile boolean loopReadsOff;
    /** A consumer blocks on the socket itself ({@link StreamWait}): the watchdog leaves the reads to it. */
    private volatile boolean waiting;
    /**
     * On the loop: the watchdog's timer while one runs, else null. One periodic task for a whole take-over, re-queued
     * by Netty after each turn: no task allocated per turn.
     */
    private ScheduledFuture<?> watchdogTimer;
    /** Under the QP's lock: the last {@link #read} took all it asked for. */
    private boolean filled;
    /**
     * Under the QP's lock: the last read came back short, so the socket was empty then; the next poll does not read
     * again at once. A consumer about to block goes straight to its wait (level-triggered: it returns at once if
     * octets came since) without a read that finds nothing; a busy poller reads at the poll after.
     */
    private boolean drained;

    private ReceiveInPlace(QpEngine qp, AbstractEpollStreamChannel ch, LoopReadGate gate, Receiver rx) {
        this.qp = qp;
        this.loop = ch.eventLoop();
        this.ch = ch;
        this.gate = gate;
        this.rx = rx;
    }

    /**
     * For a stream bound to {@code rx} that transmits in place (the caller checked {@link TxWire}'s conditions: an
     * epoll stream whose pipeline holds just the Receiver), or null when it was not made with a {@link LoopReadGate}.
     */
    static ReceiveInPlace of(QpEngine qp, Channel ch, Receiver rx) {
        if (!Diagnostics.RECEIVE_IN_PLACE || !(ch instanceof AbstractEpollStreamChannel c)
                || !(ch.config().getRecvByteBufAllocator() instanceof LoopReadGate g)) {
            return null;
        }
        return new ReceiveInPlace(qp, c, g, rx);
    }

    LoopReadGate gate() {
        return gate;
    }

    /**
     * {@link QpEngine#receiveInPlace} on this stream: on a polling thread, never the loop, with the QP's lock if it
     * is free (only the event loop waits for it): reads, feeds the Receiver, then transmits in place what that asked
     * for. True when bytes were read.
     */
    boolean receive() {
        if (loop.inEventLoop() || StreamWait.onVirtualThread()) {
            // not on virtual threads: each would keep a read buffer of its own (IN_PLACE_READ_MAX, direct), and a
            // service may run thousands; the loop reads for them
            return false;
        }
        polled();
        if (!qp.lock.tryLock()) {
            return false;
        }
        try {
            if (!qp.receivesInPlace(this)) {
                giveBack(); // Terminate, close, end of stream: the loop reads what follows
                return false;
            }
            if (drained) {
                drained = false;
                qp.counters.inc(Counter.RX_IN_PLACE_SKIPS);
                return false;
            }
            boolean any = false;
            for (int reads = 1, octets = 0; ; reads++) {
                int n = read();
                if (n == FAILED) {
                    // reset under our read (the loop will only see the end of the stream): an LLP error; the loop
                    // closes the stream holding the lock, so no other in-place read or write meets the closed socket
                    qp.counters.inc(Counter.RX_IN_PLACE_FAILURES);
                    loop.execute(() -> qp.teardown.streamLost(ch));
                    return any;
                }
                if (n == NOTHING) {
                    if (gate.ended()) {
                        giveBack(); // the loop sees the end too and reports it
                    }
                    return any;
                }
                any = true;
                octets += n;
                qp.counters.inc(Counter.RX_IN_PLACE);
                qp.counters.add(Counter.RX_IN_PLACE_BYTES, n);
                readInPlace();
                // as after the loop's reads (Receiver.pumpAfterReads): a Write placed leaves the sending side nothing
                if (qp.sendingSideHasWork()) {
                    qp.inbox().pumpInPlaceOrDrain();
                }
                // a read that took all it asked for most likely left more behind (a head read, then its payload):
                // read on rather than go back through the caller's poll and wait; a short read drained the socket
                if (!filled || reads == READS_PER_TURN || octets >= OCTETS_PER_TURN || !qp.receivesInPlace(this)) {
                    return true;
                }
            }
        } finally {
            qp.lock.unlock();
        }
    }

    /**
     * Under the QP's lock: reads what the socket holds (one buffer at most) and feeds it to the Receiver. The bytes
     * read; {@link #NOTHING} when the loop is reading, the socket is empty or the stream ended (the loop sees the
     * end too and reports it); {@link #FAILED} when the read failed (the error is consumed: the caller reports it).
     */
    int read() {
        if (!gate.quiet() || !ch.isActive()) {
            return NOTHING;
        }
        ReadBuffer rb = BUFFER.get();
        ByteBuf b = rb.buf;
        if (rb.busy || !b.hasMemoryAddress()) {
            return NOTHING;
        }
        b.clear();
        InPlaceProbe.beforeRead(ch);
        DirectPlacement direct = rx.direct();
        int placement = direct.pending(); // a payload's rest goes straight to its target
        int n;
        int asked;
        try {
            int head = placement > 0 ? 0 : direct.headReadLength(); // the next FPDU's head, to place its payload too
            asked = placement > 0 ? placement : head > 0 ? head : b.capacity();
            n = placement > 0 ? ch.fd().readAddress(direct.address(), 0, placement)
                    : ch.fd().readAddress(b.memoryAddress(), 0, asked);
        } catch (IOException | RuntimeException e) {
            // RuntimeException: never expected while the owner holds the descriptor open, and never the consumer's
            gate.end();
            return FAILED;
        }
        if (n <= 0) {
            if (n < 0) {
                gate.end();
            }
            return NOTHING;
        }
        filled = n == asked;
        drained = !filled;
        if (placement > 0) {
            direct.placedInPlace(n);
            return n;
        }
        b.writerIndex(n);
        rb.busy = true;
        try {
            rx.feed(b);
        } finally {
            rb.busy = false;
        }
        return n;
    }

    // ---------------------------------------------------------------- taking the reads from the loop

    /*
     * Busy-poll mode: while consumers keep polling and keep finding the data first, the event loop stops reading
     * the stream (auto-read off: its epoll registration drops EPOLLIN), so it is no longer woken for every
     * arrival only to find the socket empty or to wait for the lock: on a machine with fewer cores than busy
     * threads those wake-ups take the pollers' CPU. The loop reads again as soon as a consumer arms its CQ to
     * block (pollingStops), an in-place read meets the end of the stream, the QP leaves RTS, or nobody polled
     * between two turns of a watchdog on the loop, IDLE_NANOS apart: a consumer that stops polling without arming
     * delays what arrives by at most about twice that, and nothing is left unread. A poll marks itself with a release
     * store of a flag, and only when the watchdog cleared it: the clock read into a volatile on every poll it replaced
     * cost the busy-polling WRITE p50 0.28 us (docs/perf-history.md, sixth session).
     */

    /** A consumer polls (any thread, before it tries the lock). */
    private void polled() {
        if (!polledSinceTurn.getOpaque()) { // a store only when the watchdog cleared it: the line stays shared
            polledSinceTurn.setRelease(true);
        }
    }

    /** Under the QP's lock: the stream's socket descriptor while it is open, else -1 (for {@link StreamWait}). */
    int socketFd() {
        return ch.isActive() ? ch.fd().intValue() : -1;
    }

    /**
     * Under the QP's lock: a consumer is about to block on the socket itself ({@link StreamWait}): it reads what
     * arrives, so the loop stops reading (as for busy pollers) and stays off while waiters keep coming.
     */
    void waiterArrives() {
        polledSinceTurn.setRelease(true);
        drained = false; // the wait sees what came since; the read after it must not be skipped
        waiting = true;
        if (!loopReadsOff) {
            loopReadsOff = true;
            loop.execute(stopLoopReads);
        }
    }

    /** Any thread: the blocked consumer woke (it polls next). */
    void waiterLeaves() {
        polledSinceTurn.setRelease(true);
        waiting = false;
    }

    /** Under the QP's lock: an in-place read found data. */
    private void readInPlace() {
        if (++streak == TAKE_OVER_STREAK && !loopReadsOff) {
            loopReadsOff = true;
            loop.execute(stopLoopReads);
        }
    }

    /** Under the QP's lock: the loop fed bytes it read. */
    void loopRead() {
        streak = 0;
    }

    /** Whether the loop has stopped reading (tests, stats). */
    boolean loopReadsOff() {
        return loopReadsOff;
    }

    /** Any thread: the loop reads the stream again (no-op unless it stopped). */
    void giveBack() {
        if (loopReadsOff) {
            loop.execute(giveBackTask);
        }
    }

    private void giveBackOnLoop() {
        qp.locked(() -> {
            if (loopReadsOff) {
                resume();
            }
        });
    }

    private void stopLoopReads() {
        qp.locked(() -> {
            if (!loopReadsOff) {
                return;
            }
            if (!qp.receivesInPlace(this) || !ch.isActive() || gate.ended()) {
                resume();
                return;
            }
            ch.config().setAutoRead(false);
            qp.counters.inc(Counter.RX_POLLER_TAKEOVERS);
            polledSinceTurn.setRelease(true); // the watchdog's first turn looks at the polls of one whole interval
            if (watchdogTimer == null) {
                watchdogTimer = loop.scheduleWithFixedDelay(watchdog, IDLE_NANOS, IDLE_NANOS, TimeUnit.NANOSECONDS);
            }
        });
    }

    /**
     * On the loop, every {@link #IDLE_NANOS} while the pollers read. The lock held means a thread is at work on the QP
     * (most often a poller reading): the watchdog looks again at its next turn instead of waiting, which would hold
     * the loop, and every other stream it serves, behind that read. A consumer that stopped polling leaves the lock
     * free, so a turn soon finds it and gives the reads back.
     */
    private void watch() {
        if (!qp.lock.tryLock()) {
            return;
        }
        try {
            if (!loopReadsOff) {
                stopWatching();
            } else if ((!waiting && !polledSinceLastTurn()) || !qp.receivesInPlace(this)
                    || gate.ended()) {
                resume();
                stopWatching();
            }
        } finally {
            qp.lock.unlock();
        }
    }

    /** On the loop, at a watchdog turn: whether a consumer polled since the last one (and clears the mark). */
    private boolean polledSinceLastTurn() {
        if (polledSinceTurn.getAcquire()) {
            polledSinceTurn.setRelease(false);
            return true;
        }
        return false;
    }

    /** On the loop: the take-over ended; the watchdog's timer stops (cancelled from the loop: no task queued). */
    private void stopWatching() {
        if (watchdogTimer != null) {
            watchdogTimer.cancel(false);
            watchdogTimer = null;
        }
    }

    /** On the loop, under the QP's lock. */
    private void resume() {
        loopReadsOff = false;
        streak = 0;
        if (ch.isOpen()) {
            ch.config().setAutoRead(true); // EPOLLIN back: what waits in the socket is read at once
        }
    }
}
