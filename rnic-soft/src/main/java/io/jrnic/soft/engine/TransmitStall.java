package io.jrnic.soft.engine;

import io.jrnic.verbs.observe.JfrEvents;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Backpressure on one stream's transmit side: a stall begins when the channel stops taking data while the QP has
 * something to send and ends when it turns writable again (counted, and a JFR event); a stall that lasts the transmit
 * stall timeout loses the stream as an LLP error (RFC 5044 section 8) instead of holding the QP's memory and work
 * requests for ever. Owned by the {@link TxWire} of one bind, under the QP's lock (the timer takes it).
 */
final class TransmitStall {
    private final QpEngine qp;
    private final Channel ch;
    /** {@link StreamParams#transmitStallTimeoutMillis()}; 0 = off. */
    private final long timeoutMillis;
    /** System.nanoTime() when the channel stopped taking data with work pending, else 0. */
    private long start;
    /** The running stall's timer, cancelled when the stall ends (a pending timer keeps the QP reachable). */
    private ScheduledFuture<?> timer;

    TransmitStall(QpEngine qp, Channel ch, long timeoutMillis) {
        this.qp = qp;
        this.ch = ch;
        this.timeoutMillis = timeoutMillis;
    }

    /** A stall is running. */
    boolean active() {
        return start != 0;
    }

    /** After a pump: the channel stopped taking data while the QP may send: a stall begins (timer armed). */
    void check(boolean txOpen) {
        if (!ch.isWritable() && start == 0 && txOpen) {
            start = System.nanoTime();
            if (timeoutMillis > 0) {
                long started = start;
                timer = ch.eventLoop().schedule(() -> qp.locked(() -> expired(started)), timeoutMillis,
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * The stall that began at {@code started} has lasted the timeout if no writability change ended it: the peer
     * does not drain the stream (zero window, or a reader of a few bytes per second).
     */
    private void expired(long started) {
        if (start == started && !ch.isWritable() && ch.isActive()) {
            qp.counters.inc(Counter.TRANSMIT_STALL_TIMEOUTS);
            qp.teardown.transmitStalled(timeoutMillis);
        }
    }

    /** The channel turned writable: ends a stall begun by {@link #check}. */
    void writable() {
        if (start != 0) {
            long waited = System.nanoTime() - start;
            start = 0;
            cancel();
            qp.counters.inc(Counter.BACKPRESSURE_STALLS);
            qp.counters.add(Counter.BACKPRESSURE_NANOS, waited);
            JfrEvents.BackpressureStall e = new JfrEvents.BackpressureStall();
            if (e.shouldCommit()) {
                e.waitedNanos = waited;
                e.commit();
            }
        }
    }

    /** Cancels the running stall's timer (the stream closed, or the stall ended). */
    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
