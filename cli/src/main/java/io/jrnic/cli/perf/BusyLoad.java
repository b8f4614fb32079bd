package io.jrnic.cli.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code jrnic perf --busy}: one CPU-bound thread per core for the whole run, so that latency and rates are
 * measured on a machine whose cores are taken (the event loops and the TCP threads must be scheduled in
 * between), as in a service that is doing other work. Daemon threads; {@link #close} stops them.
 */
public final class BusyLoad implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;
    /** Keeps the spin loops' results alive (no dead-code elimination). */
    private volatile long sink;

    private BusyLoad(int n) {
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(this::spin, "jrnic-perf-busy-" + i);
            t.setDaemon(true);
            t.setPriority(Thread.NORM_PRIORITY);
            threads.add(t);
            t.start();
        }
    }

    /** Starts {@code n} busy threads. */
    public static BusyLoad start(int n) {
        return new BusyLoad(n);
    }

    public int threads() {
        return threads.size();
    }

    private void spin() {
        long x = 1;
        while (running) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            t.join(5_000);
        }
    }
}
