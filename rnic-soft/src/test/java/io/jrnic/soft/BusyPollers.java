package io.jrnic.soft;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Test fixture of {@link ConnectionIsolationStressTest}: one thread per CQ busy-polling it ({@code poll} in a loop:
 * what drives the provider's receive in place), handing each completion to the {@link IsolatedPair} its QP's context
 * names; an exception from a verbs call is counted in the {@link IsolationTally}. Each thread stops when told or at
 * its deadline.
 */
final class BusyPollers {
    private final IsolationTally tally;
    private final long runNanos;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean polling = true;

    /** {@code runNanos}: how long a poller may poll at most (the run's length and its phases). */
    BusyPollers(IsolationTally tally, long runNanos) {
        this.tally = tally;
        this.runNanos = runNanos;
    }

    void start(CompletionQueue cq, String side) {
        Thread t = new Thread(() -> poll(cq), "isolation-poller-" + side + threads.size());
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Busy-polls {@code cq} until told to stop (bounded by the run's length and its phases). */
    private void poll(CompletionQueue cq) {
        Completion[] batch = Completion.array(32);
        long deadline = System.nanoTime() + runNanos;
        while (polling && System.nanoTime() < deadline) {
            int n;
            try {
                n = cq.poll(batch);
            } catch (RuntimeException e) {
                tally.exception("poll", e);
                continue;
            }
            for (int i = 0; i < n; i++) {
                Completion c = batch[i];
                if (c.qpContext() instanceof IsolatedPair.End end) {
                    try {
                        end.pair.completed(end, c);
                    } catch (RuntimeException e) {
                        tally.exception(end + " completion", e);
                    }
                }
            }
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Stops every poller, waiting up to {@code waitNanos} in all; each that did not stop goes to {@code hang}. */
    void stop(long waitNanos, Consumer<String> hang) throws InterruptedException {
        polling = false;
        long deadline = System.nanoTime() + waitNanos;
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                StringBuilder s = new StringBuilder(t.getName() + " did not stop:");
                for (StackTraceElement e : t.getStackTrace()) {
                    s.append("\n\tat ").append(e);
                }
                hang.accept(s.toString());
            }
        }
    }
}
