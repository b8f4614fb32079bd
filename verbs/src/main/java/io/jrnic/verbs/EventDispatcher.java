package io.jrnic.verbs;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The device event thread (seed 001 "asynchronous destroy"): every application callback (async
 * events, CM events, completion-channel callbacks) runs here, never on a provider thread, so a
 * callback may close resources, block briefly or post work without deadlocking the provider.
 */
final class EventDispatcher {
    private final ExecutorService executor;
    private volatile Thread thread;

    EventDispatcher(String name) {
        executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "jrnic-events-" + name);
            t.setDaemon(true);
            thread = t;
            return t;
        });
    }

    void dispatch(Runnable task) {
        if (!executor.isShutdown()) {
            try {
                executor.execute(task);
            } catch (java.util.concurrent.RejectedExecutionException ignored) {
                // shut down concurrently: events after device close are dropped by design
            }
        }
    }

    boolean onEventThread() {
        return Thread.currentThread() == thread;
    }

    /** Stops after the queued events ran (bounded wait unless called from the event thread itself). */
    void shutdown() {
        executor.shutdown();
        if (!onEventThread()) {
            try {
                if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                executor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
