package io.jrnic.nvmf.subsystem;

import io.jrnic.nvmf.Poller;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a task on the poller thread and waits for it (bounded). */
final class OnPoller {
    private OnPoller() {
    }

    static void runOn(Poller p, Runnable r) {
        if (p.inPoller()) {
            r.run();
            return;
        }
        CompletableFuture<Void> f = new CompletableFuture<>();
        p.execute(() -> {
            try {
                r.run();
                f.complete(null);
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        try {
            f.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // best effort at close
        }
    }
}
