package io.jrnic.interop.siw;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs siw cases on several guests at once. Each lane is a thread that owns a {@link GuestPool} (one QEMU, in a
 * network namespace of its own, so lanes share no address, port or interface) and takes the next case from a queue
 * they share. Most of a case's time is waiting on the guest (the conform responder run: 0.64 of a core over its
 * wall time, QEMU included), so two lanes on two cores take little more than half the time of one.
 *
 * <p>With more than one lane, the cases that want a fresh guest (the long conform, fuzz and NVMe-oF runs) are
 * queued first, so that the short ones fill the lanes at the end. With one lane the order is the caller's.
 */
public final class MatrixLanes implements AutoCloseable {
    private final Map<String, CompletableFuture<CaseResult>> results = new LinkedHashMap<>();
    private final ConcurrentLinkedQueue<SiwCase> queue;
    private final List<GuestPool> pools = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Path outDir;

    private MatrixLanes(List<SiwCase> cases, List<SiwCase> queued, Path outDir) {
        this.outDir = outDir;
        cases.forEach(c -> results.put(c.name(), new CompletableFuture<>()));
        this.queue = new ConcurrentLinkedQueue<>(queued);
    }

    /** Starts {@code lanes} lanes over {@code cases}, logging boots and results to {@code log}. */
    public static MatrixLanes start(SiwImage image, List<SiwCase> cases, int lanes, Path outDir, PrintStream log)
            throws IOException {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes: " + lanes);
        }
        Files.createDirectories(outDir);
        MatrixLanes m = new MatrixLanes(cases, order(cases, lanes), outDir);
        for (int i = 0; i < lanes; i++) {
            GuestPool pool = new GuestPool(image, log);
            m.pools.add(pool);
            Thread t = new Thread(() -> m.drain(pool, log), "siw-lane-" + i);
            t.setDaemon(true);
            m.threads.add(t);
        }
        m.threads.forEach(Thread::start);
        return m;
    }

    /** {@code cases} in the order the lanes take them. */
    static List<SiwCase> order(List<SiwCase> cases, int lanes) {
        if (lanes == 1) {
            return List.copyOf(cases);
        }
        List<SiwCase> l = new ArrayList<>(cases.stream().filter(SiwCase::freshGuest).toList());
        l.addAll(cases.stream().filter(c -> !c.freshGuest()).toList());
        return l;
    }

    /** Case {@code c}'s result, waiting up to {@code timeout} for it. */
    public CaseResult await(SiwCase c, Duration timeout) throws InterruptedException, TimeoutException {
        CompletableFuture<CaseResult> f = results.get(c.name());
        if (f == null) {
            throw new IllegalArgumentException("not a case of this run: " + c.name());
        }
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(c.name() + ": " + e.getCause(), e.getCause());
        }
    }

    /** Every result, in the order of the cases given. */
    public List<CaseResult> awaitAll(Duration timeout) throws InterruptedException, TimeoutException {
        long end = System.nanoTime() + timeout.toNanos();
        List<CaseResult> all = new ArrayList<>();
        for (String name : results.keySet()) {
            try {
                all.add(results.get(name).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                throw new IllegalStateException(name + ": " + e.getCause(), e.getCause());
            }
        }
        return all;
    }

    private void drain(GuestPool pool, PrintStream log) {
        for (SiwCase c = queue.poll(); c != null; c = queue.poll()) {
            CompletableFuture<CaseResult> f = results.get(c.name());
            try {
                CaseResult r = runOne(pool, c);
                log.println(r);
                f.complete(r);
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }
        pool.close(); // this lane's QEMU goes now, not when the last lane ends
    }

    /** One case on the lane's guest: a case that throws is a FAIL; the console is saved next to any failure. */
    private CaseResult runOne(GuestPool pool, SiwCase c) {
        long t0 = System.nanoTime();
        try {
            SiwGuest guest = pool.guestFor(c);
            CaseResult r = SiwMatrix.runOne(guest, c, outDir);
            if (!r.passed() && guest.alive()) {
                SiwMatrix.saveConsole(guest, outDir.resolve(c.name() + "-console.txt"));
            }
            return r;
        } catch (RuntimeException | IOException e) { // GuestFailureException among them
            if (pool.current() != null) {
                SiwMatrix.saveConsole(pool.current(), outDir.resolve(c.name() + "-console.txt"));
            }
            return new CaseResult(c.name(), CaseResult.Outcome.FAIL, e.toString(),
                    Duration.ofNanos(System.nanoTime() - t0), List.of());
        }
    }

    /** Stops taking cases and closes every lane's guest; a case under way runs to its end first (at most 10 min). */
    @Override
    public void close() throws InterruptedException {
        queue.clear();
        for (Thread t : threads) {
            t.join(TimeUnit.MINUTES.toMillis(10));
        }
        pools.forEach(GuestPool::close);
    }
}
