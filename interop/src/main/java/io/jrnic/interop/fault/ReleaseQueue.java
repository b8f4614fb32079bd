package io.jrnic.interop.fault;

import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * What one direction of a {@link FaultProxy} has still to do (write a chunk, pass a FIN or cut, read on), in
 * order, each not before its release time: an action never runs before the ones added ahead of it, whatever
 * the release times. Order comes from this FIFO, not from the timer: scheduling each action on the event loop
 * at its own time ran them in deadline order, and a deadline is only as exact as the moment the loop reads
 * its clock; a pause of the loop thread (a preemption, a safepoint) between the proxy's reading of the time
 * and Netty's pushed a chunk's deadline past the next one's, which was then written first. Confined to
 * {@code loop}: call {@link #add} on it.
 */
final class ReleaseQueue {
    private record Pending(long atNanos, Runnable action) {
    }

    private final EventExecutor loop;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    /** A timer is set for the head (so something is queued and not yet due). */
    private boolean timerSet;
    /** Within {@link #drain}: an action that adds leaves the new entry to the running drain. */
    private boolean draining;

    ReleaseQueue(EventExecutor loop) {
        this.loop = loop;
    }

    /**
     * Queues {@code action} to run after everything queued before it and not before {@code atNanos}
     * ({@link System#nanoTime()} time); runs it at once when it is due and nothing waits ahead of it.
     */
    void add(long atNanos, Runnable action) {
        queue.add(new Pending(atNanos, action));
        if (!timerSet && !draining) {
            drain();
        }
    }

    /** Runs the due entries from the head; sets a timer for the first that is not due (it blocks the rest). */
    private void drain() {
        draining = true;
        try {
            Pending p;
            while ((p = queue.peek()) != null) {
                long wait = p.atNanos() - System.nanoTime();
                if (wait > 0) {
                    // late if the loop is late, never early: Netty's deadline is taken after our clock reading
                    timerSet = true;
                    loop.schedule(() -> {
                        timerSet = false;
                        drain();
                    }, wait, TimeUnit.NANOSECONDS);
                    return;
                }
                queue.poll();
                p.action().run();
            }
        } finally {
            draining = false;
        }
    }
}
