package io.jrnic.examples.srp;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One thread draining a completion queue into a handler: spins briefly when idle, then parks
 * (the machine may be small and shared; a pure busy-poll would starve the peer's threads).
 */
final class CqPoller implements AutoCloseable {
    private static final int SPINS = 200;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    private final Thread thread;
    private volatile boolean running = true;

    CqPoller(String name, CompletionQueue cq, Consumer<Completion> handler) {
        thread = new Thread(() -> {
            Completion[] batch = Completion.array(64);
            int idle = 0;
            while (running) {
                int n = cq.poll(batch);
                for (int i = 0; i < n; i++) {
                    handler.accept(batch[i]);
                }
                if (n > 0) {
                    idle = 0;
                } else if (++idle < SPINS) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
