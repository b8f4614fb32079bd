package io.jrnic.conform.fuzz;

import io.jrnic.conform.Target;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Polls {@link Target#crashed} every {@code interval} on a daemon thread (so during each watch window, too)
 * and once more on demand before the next execution. The first signal sticks until {@link #reset}, which
 * the fuzzer calls after the before hook brought a fresh target; a poll that began before the reset is
 * dropped, so a dead target's console cannot signal against the fresh one.
 */
final class CrashWatch implements AutoCloseable {
    private final Target target;
    private final AtomicReference<String> signal = new AtomicReference<>();
    private final AtomicLong epoch = new AtomicLong();
    private final Thread poller;
    private volatile boolean closed;

    CrashWatch(Target target, Duration interval) {
        this.target = target;
        this.poller = new Thread(() -> {
            while (!closed) {
                poll();
                try {
                    Thread.sleep(interval.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "jrnic-fuzz-crash-watch");
        poller.setDaemon(true);
        poller.start();
    }

    /** Polls now; returns the signal (this poll's or an earlier one's), or null. */
    String check() {
        poll();
        return signal.get();
    }

    /** A fresh target: forget the signal. */
    synchronized void reset() {
        epoch.incrementAndGet();
        signal.set(null);
    }

    private void poll() {
        long e = epoch.get();
        String s;
        try {
            s = target.crashed();
        } catch (Exception ex) {
            s = null;   // a failing crash hook is no evidence of a crash
        }
        synchronized (this) {
            if (s != null && epoch.get() == e) {
                signal.compareAndSet(null, s);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        poller.interrupt();
    }
}
