package io.jrnic.cli.perf;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A wall-clock cap plus a polite wait strategy: spin briefly, then yield, then park 20 us, so that
 * two busy-polling sides and the engine's threads can share two cores.
 */
public final class Deadline {
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

    /** Called when a poll found nothing: backs off, and throws once the deadline passed. */
    public void idle(String waitingFor) throws TimeoutException {
        int n = ++idle;
        if (n == 1) {
            lastProgress = System.nanoTime();   // the idle streak starts now
        }
        if (n < 64) {
            Thread.onSpinWait();
        } else if (n < 256) {
            Thread.yield();
        } else {
            if ((n & 15) == 0) {
                long now = System.nanoTime();
                if (now - end >= 0) {
                    throw new TimeoutException("timed out waiting for " + waitingFor);
                }
                if (now - lastProgress > stallNanos) {
                    throw new TimeoutException("no progress for " + stallNanos / 1_000_000_000L + " s waiting for " + waitingFor);
                }
            }
            LockSupport.parkNanos(20_000);
        }
    }
}
