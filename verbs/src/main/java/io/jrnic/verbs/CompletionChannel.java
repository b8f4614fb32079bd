package io.jrnic.verbs;

import java.util.concurrent.LinkedBlockingQueue;
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
    private final LinkedBlockingQueue<Object> fired = new LinkedBlockingQueue<>();
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
        Object o = fired.poll(timeout, unit);
        if (o == CLOSED) {
            fired.offer(CLOSED);
            throw new ResourceClosedException("CompletionChannel");
        }
        return (CompletionQueue) o;
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
        fired.clear();
        fired.offer(CLOSED);
    }
}
