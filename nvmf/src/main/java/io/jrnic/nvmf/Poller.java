package io.jrnic.nvmf;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One thread that drains every completion queue of a target or a host and runs the tasks handed to
 * it, so that all protocol state of one side is touched by this thread only. Spins briefly when
 * idle, then parks (the machine may be small and shared). {@link #tick} runs about every 50 ms
 * (timers: keep-alive).
 */
public final class Poller implements AutoCloseable {
    private static final int SPINS = 200;
    private static final long PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private record Source(CompletionQueue cq, Consumer<Completion> handler) {
    }

    private final List<Source> sources = new CopyOnWriteArrayList<>();
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final Thread thread;
    private final Runnable tick;
    private volatile boolean running = true;
    private final java.util.concurrent.atomic.AtomicLong handlerFailures = new java.util.concurrent.atomic.AtomicLong();

    public Poller(String name, Runnable tick) {
        this.tick = tick;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Polls {@code cq} into {@code handler} from now on (call from any thread). */
    public void add(CompletionQueue cq, Consumer<Completion> handler) {
        sources.add(new Source(cq, handler));
        LockSupport.unpark(thread);
    }

    /** Stops polling {@code cq} (call from the poller thread before closing it). */
    public void remove(CompletionQueue cq) {
        sources.removeIf(s -> s.cq == cq);
    }

    /** Runs {@code task} on the poller thread. */
    public void execute(Runnable task) {
        tasks.add(task);
        LockSupport.unpark(thread);
    }

    public boolean inPoller() {
        return Thread.currentThread() == thread;
    }

    private void loop() {
        Completion[] batch = Completion.array(64);
        int idle = 0;
        long nextTick = System.nanoTime() + TICK_NANOS;
        while (running) {
            int work = 0;
            Runnable t;
            while ((t = tasks.poll()) != null) {
                run(t);
                work++;
            }
            for (Source s : sources) {
                int n;
                try {
                    n = s.cq.poll(batch);
                } catch (RuntimeException e) {
                    n = 0; // closed under us: its owner removes it
                }
                for (int i = 0; i < n; i++) {
                    Completion c = batch[i];
                    run(() -> s.handler.accept(c));
                }
                work += n;
            }
            long now = System.nanoTime();
            if (now - nextTick >= 0) {
                nextTick = now + TICK_NANOS;
                if (tick != null) {
                    run(tick);
                }
            }
            if (work > 0) {
                idle = 0;
            } else if (++idle < SPINS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
        Runnable t;
        while ((t = tasks.poll()) != null) { // clean-ups handed over at close
            run(t);
        }
    }

    /** A failing handler must not stop the thread that serves every other queue (it is a bug: counted, logged). */
    private void run(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            handlerFailures.incrementAndGet();
            System.getLogger(Poller.class.getName()).log(System.Logger.Level.WARNING, "nvmf handler failed", e);
        }
    }

    /** Handlers that threw (each one a bug; tests assert none). */
    public long handlerFailures() {
        return handlerFailures.get();
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        if (!inPoller()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
