package io.jrnic.verbs;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Delivers CQ notifications armed with {@link CompletionQueue#requestNotify(boolean)} (verbs
 * "completion event handler"; ibv_comp_channel). Either blocking: {@link #await(long, TimeUnit)}
 * returns the CQ that fired; or callback: {@link #onNotify(Consumer)} runs on the device event thread.
 * The two modes are exclusive: once a callback is set, await throws IllegalStateException.
 * A notification is delivered once per arming.
 */
public final class CompletionChannel extends Resource {
    private final RdmaDevice device;
    private final Notifications fired = new Notifications();
    private static final Object CLOSED = new Object();
    private volatile Consumer<CompletionQueue> callback;

    RdmaDevice device() {
        return device;
    }

    CompletionChannel(RdmaDevice device) {
        super(device, "CompletionChannel");
        this.device = device;
    }

    @Override
    int closeRank() {
        return 3;
    }

    /** Callback mode: every notification runs {@code handler} on the device event thread. */
    public CompletionChannel onNotify(Consumer<CompletionQueue> handler) {
        checkOpen();
        callback = handler;
        Object o;
        while ((o = fired.poll()) != null) {
            if (o instanceof CompletionQueue cq) {
                device.dispatcher().dispatch(() -> handler.accept(cq));
            }
        }
        return this;
    }

    /**
     * Blocking mode: waits up to {@code timeout} for a notification and returns its CQ, or null on
     * timeout. @throws ResourceClosedException when closed (also wakes waiters)
     */
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        checkOpen();
        if (callback != null) {
            throw new IllegalStateException("channel is in callback mode");
        }
        Object o = fired.poll();
        if (o == null) {
            long deadline = System.nanoTime() + unit.toNanos(timeout);
            CompletionQueue cq = soleCq;
            long left;
            // until the CQ closes or stops being the sole one: a closed CQ's awaitInput returns at once
            while (cq != null && cq == soleCq && !cq.isClosedFlag() && (left = deadline - System.nanoTime()) > 0) {
                // one wake-up (spec-notes/engine.md, "Blocking waiters"): wait on the sole CQ's QP's input, then
                // read it on this thread; the completion it makes notifies this channel
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (!cq.awaitInput(left, true)) {
                    break;
                }
                cq.progress();
                if ((o = fired.poll()) != null) {
                    break;
                }
            }
            if (o == null) {
                o = fired.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        }
        if (o == CLOSED) {
            fired.offer(CLOSED);
            throw new ResourceClosedException("CompletionChannel");
        }
        return (CompletionQueue) o;
    }

    /** The CQs that notify this channel; {@code soleCq} is the one when there is exactly one, else null. */
    private final java.util.Set<CompletionQueue> cqs = new java.util.HashSet<>(); // under its own monitor
    private volatile CompletionQueue soleCq;

    void cqCreated(CompletionQueue cq) {
        synchronized (cqs) {
            cqs.add(cq);
            soleCq = cqs.size() == 1 ? cq : null;
        }
    }

    void cqClosed(CompletionQueue cq) {
        synchronized (cqs) {
            cqs.remove(cq);
            soleCq = cqs.size() == 1 ? cqs.iterator().next() : null;
        }
    }

    /**
     * Whether a blocking {@link #await} will wait on {@code cq}'s QP's input itself (the channel is in blocking mode,
     * {@code cq} is its only CQ and its QP's provider offers an {@link io.jrnic.verbs.spi.InputWaiter}): then
     * arming {@code cq} does not hand the stream's reads back to the provider's threads.
     */
    boolean waitsOnInput(CompletionQueue cq) {
        return callback == null && soleCq == cq && cq.soleInputWaiter() != null;
    }

    void notifyFrom(CompletionQueue cq) {
        if (isClosedFlag()) {
            return;
        }
        Consumer<CompletionQueue> cb = callback;
        if (cb != null) {
            device.dispatcher().dispatch(() -> cb.accept(cq));
        } else {
            fired.offer(cq);
        }
    }

    @Override
    void release() {
        fired.replaceAll(CLOSED);
    }
}
