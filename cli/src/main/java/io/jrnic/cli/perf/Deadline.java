package io.jrnic.cli.perf;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A wall-clock cap plus wait strategies: {@link #idle} spins briefly, yields, then parks 20 us (or blocks on a
 * completion channel, see {@link Cq}), so that two busy-polling sides and the engine's threads can share two
 * cores; {@link #idlePolling} (busy-polling latency) spins for up to 1 ms before parking and never blocks;
 * {@link #idleBlocking} (blocking latency) blocks at once.
 */
public final class Deadline {
    /**
     * A busy-polling latency loop ({@link #idlePolling}) spins for this long before it parks, as ib_write_lat spins
     * (a park costs its 20 us plus the kernel's timer slack, 50 us by default, more than the round trip it waits
     * for). It used to yield after 64 spins: with a CPU-bound thread per core ({@code --busy}) a yield hands the
     * core to that thread for the rest of its time slice (the pollers got about 10% of a core, the hogs 80%), so
     * one late reply made both sides yield and whole runs stayed at 2-4 ms per round trip. Spinning keeps them
     * on the core; an engine thread that must run is woken and preempts. TCP and RDMA rows wait alike.
     */
    static final long SPIN_NANOS = 1_000_000L;
    /** {@link #idle}: empty polls spent spinning, then yielding, before it blocks or parks. */
    static final int SPINS = 64;
    /**
     * A bandwidth loop waits for the engine's threads to move a window of data: yielding longer only takes their
     * cores (192 yields per wait made the poster of a 1 MiB WRITE row the largest source of system calls, 45,000
     * sched_yield a second, beside the engine's 60,000 reads), so it blocks after a few.
     */
    static final int YIELDS = 16;
    private final long end;
    private long stallNanos = Long.MAX_VALUE;
    private long lastProgress;
    private int idle;

    private Deadline(long end) {
        this.end = end;
    }

    /** Also give up once no progress was made for {@code nanos} (a stalled peer fails fast). */
    public Deadline stall(long nanos) {
        this.stallNanos = nanos;
        return this;
    }

    public static Deadline in(long nanos) {
        long now = System.nanoTime();
        return new Deadline(nanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + nanos);
    }

    public boolean expired() {
        return System.nanoTime() - end >= 0;
    }

    public long remainingNanos() {
        return Math.max(0, end - System.nanoTime());
    }

    public long remainingMillis() {
        return Math.max(1, remainingNanos() / 1_000_000);
    }

    /** Called when a poll made progress. */
    public void progress() {
        idle = 0;
    }

    /** How a waiter blocks once spinning and yielding found nothing (instead of a 20 us park). */
    public interface Blocker {
        void block();
    }

    /** Called when a poll found nothing: backs off, and throws once the deadline passed. */
    public void idle(Object waitingFor) throws TimeoutException {
        idle(waitingFor, null);
    }

    /**
     * As {@link #idle(Object)}, but past the spin and yield phases blocks with {@code blocker} (e.g. on a
     * completion channel, woken by the completion itself) when not null, else parks 20 us.
     */
    public void idle(Object waitingFor, Blocker blocker) throws TimeoutException {
        idle(waitingFor, blocker, false);
    }

    /**
     * As {@link #idle(Object)} for a latency loop polling memory the peer writes: spins up to {@link #SPIN_NANOS}
     * before parking (as ib_write_lat, which never stops polling; bandwidth loops park sooner).
     */
    public void idlePolling(Object waitingFor) throws TimeoutException {
        idle(waitingFor, null, true);
    }

    /**
     * For a blocking latency loop: no spinning, no yielding; checks the deadline and the stall, then blocks with
     * {@code blocker} at once (e.g. arm the CQ, re-check, wait on the completion channel).
     */
    public void idleBlocking(Object waitingFor, Blocker blocker) throws TimeoutException {
        if (++idle == 1) {
            lastProgress = System.nanoTime();
        }
        check(System.nanoTime(), waitingFor);
        blocker.block();
    }

    private void check(long now, Object waitingFor) throws TimeoutException {
        if (now - end >= 0) {
            throw new TimeoutException("timed out waiting for " + waitingFor);
        }
        if (now - lastProgress > stallNanos) {
            throw new TimeoutException("no progress for " + stallNanos / 1_000_000_000L + " s waiting for " + waitingFor);
        }
    }

    private void idle(Object waitingFor, Blocker blocker, boolean spinLonger) throws TimeoutException {
        int n = ++idle;
        if (n == 1) {
            lastProgress = System.nanoTime();   // the idle streak starts now
        }
        if (n < SPINS || (spinLonger && System.nanoTime() - lastProgress < SPIN_NANOS)) {
            Thread.onSpinWait();
        } else if (n < SPINS + YIELDS && !spinLonger) {
            Thread.yield();
        } else {
            if ((n & 15) == 0) {
                check(System.nanoTime(), waitingFor);
            }
            if (blocker != null) {
                blocker.block();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }
}
