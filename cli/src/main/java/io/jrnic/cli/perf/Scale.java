package io.jrnic.cli.perf;

import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code jrnic perf --scale}: how many connections one JVM holds and how fast it sets them up. The passive side
 * ({@link ScaleServer}) runs in a child JVM on 127.0.0.1; this process measures:
 * <ol>
 * <li>set-up rate: connections set up (TCP, MPA v2 with CRC, QP to RTS) and torn down (orderly disconnect, QP
 *     destroyed) per second, {@link #IN_FLIGHT} at a time, for the given seconds (at most {@link #MAX_SETUPS},
 *     which keeps the loopback's TIME_WAIT ports in bounds);</li>
 * <li>idle connections: N connected QPs held at once; heap per QP = growth of the heap used after a full GC
 *     (MemoryMXBean) divided by N; threads and file descriptors before and after (no thread per QP).</li>
 * </ol>
 */
public final class Scale {
    /** Send and receive depth of every QP (an idle service connection). */
    public static final int QP_DEPTH = 16;
    static final int IN_FLIGHT = 32;
    static final int MAX_SETUPS = 8_000;
    /** Set-ups of the warm-up round (1 s at most, discarded): JIT and pools warm, as in every other perf row. */
    static final int WARMUP_SETUPS = 2_000;

    /** What one run measured. */
    public record Report(long setups, double setupSeconds, long setupFailures, int idle, long idleFailures,
                         double idleSeconds, long heapPerQp, int threadsBefore, int threadsAfter, long fdsBefore,
                         long fdsAfter) {
        public double setupsPerSecond() {
            return setups / setupSeconds;
        }
    }

    private Scale() {
    }

    static ConnectOptions options() {
        return ConnectOptions.defaults().crc(true).connectTimeout(Duration.ofSeconds(30))
                .mpaReplyTimeout(Duration.ofSeconds(30)).mpaRequestTimeout(Duration.ofSeconds(30));
    }

    /** Starts the server JVM, runs both phases against it, stops it. */
    public static Report run(String provider, int idleQps, int seconds, PrintWriter err) throws Exception {
        Process server = startServer(provider);
        try {
            InetSocketAddress at = awaitPort(server);
            try (RdmaDevice dev = Rdma.open(provider)) {
                ProtectionDomain pd = dev.allocatePd();
                CompletionQueue cq = dev.createCq(CqInit.of(1 << 16).context("scale"));
                ConnectionManager cm = dev.connectionManager();
                setupRate(cm, pd, cq, at, 1, WARMUP_SETUPS, err);
                long[] rate = setupRate(cm, pd, cq, at, seconds, MAX_SETUPS, err);
                return idle(cm, pd, cq, at, idleQps, rate, err);
            }
        } finally {
            server.destroy();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    private static QueuePair newQp(ProtectionDomain pd, CompletionQueue cq) {
        return pd.createQp(QpInit.rc(cq).maxSendWr(QP_DEPTH).maxRecvWr(QP_DEPTH));
    }

    /** Phase 1: {setups, nanos, failures}. */
    private static long[] setupRate(ConnectionManager cm, ProtectionDomain pd, CompletionQueue cq, InetSocketAddress at,
                                    int seconds, int maxSetups, PrintWriter err) throws InterruptedException {
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong lastDone = new AtomicLong();
        long t0 = System.nanoTime();
        long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
        long started = 0;
        while (System.nanoTime() < end && started < maxSetups) {
            if (!slots.tryAcquire(100, TimeUnit.MILLISECONDS)) {
                continue;
            }
            started++;
            QueuePair qp = newQp(pd, cq);
            cm.connect(at, qp, options()).thenCompose(Connection::disconnect).whenComplete((v, t) -> {
                qp.close();
                (t == null ? ok : failed).incrementAndGet();
                lastDone.set(System.nanoTime());
                slots.release();
            });
        }
        if (!slots.tryAcquire(IN_FLIGHT, 60, TimeUnit.SECONDS)) {
            err.println("jrnic perf --scale: set-ups still in flight after 60 s");
        }
        return new long[] {ok.get(), Math.max(1, lastDone.get() - t0), failed.get()};
    }

    /** Phase 2: N idle connections at once. */
    private static Report idle(ConnectionManager cm, ProtectionDomain pd, CompletionQueue cq, InetSocketAddress at, int n,
                               long[] rate, PrintWriter err) throws Exception {
        long heap0 = heapAfterGc();
        int threads0 = ManagementFactory.getThreadMXBean().getThreadCount();
        long fds0 = openFds();
        List<QueuePair> qps = new ArrayList<>(n);
        List<CompletableFuture<Connection>> conns = new ArrayList<>(n);
        Semaphore slots = new Semaphore(2 * IN_FLIGHT);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            slots.acquire();
            QueuePair qp = newQp(pd, cq);
            qps.add(qp);
            CompletableFuture<Connection> f = cm.connect(at, qp, options());
            f.whenComplete((c, t) -> slots.release());
            conns.add(f);
            if ((i + 1) % 2000 == 0) {
                err.printf("  %,d connections%n", i + 1);
                err.flush();
            }
        }
        long failed = 0;
        for (CompletableFuture<Connection> f : conns) {
            try {
                f.get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                failed++;
            }
        }
        double idleSeconds = (System.nanoTime() - t0) / 1e9;
        long heap1 = heapAfterGc();
        int threads1 = ManagementFactory.getThreadMXBean().getThreadCount();
        long fds1 = openFds();
        long held = n - failed;
        Report r = new Report(rate[0], rate[1] / 1e9, rate[2], n, failed, idleSeconds,
                held == 0 ? 0 : (heap1 - heap0) / held, threads0, threads1, fds0, fds1);
        List<CompletableFuture<Void>> downs = new ArrayList<>(n);
        for (CompletableFuture<Connection> f : conns) {
            Connection c = f.getNow(null);
            if (c != null) {
                downs.add(c.disconnect());
            }
        }
        try {
            CompletableFuture.allOf(downs.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            err.println("jrnic perf --scale: teardown of the idle connections: " + e);
        }
        qps.forEach(QueuePair::close);
        return r;
    }

    static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    static long openFds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean u) {
            return u.getOpenFileDescriptorCount();
        }
        return -1;
    }

    /** The server JVM: this JVM's java and class path, {@code jrnic perf --scale-server 0}. */
    private static Process startServer(String provider) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "-cp", System.getProperty("java.class.path"), "io.jrnic.cli.Jrnic", "perf",
                "--provider", provider, "--scale-server", "0");
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    /** Reads the server's "scale server on 127.0.0.1:PORT" line. */
    private static InetSocketAddress awaitPort(Process p) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
        String line = r.readLine();
        if (line == null || !line.startsWith(ScaleServer.READY)) {
            throw new IOException("scale server did not start: " + line);
        }
        int port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1).trim());
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** The text the command prints. */
    public static void print(PrintWriter out, Report r) {
        out.printf("jrnic perf --scale: soft RNIC, 127.0.0.1, server side in a child JVM; MPA v2 with CRC, QPs of depth %d/%d%n",
                QP_DEPTH, QP_DEPTH);
        out.printf("set-up rate     %,9.0f set-ups/s  (%,d connections set up and torn down in %.2f s, %d at a time,"
                + " %d failed, after a warm-up round of at most 1 s or %,d set-ups, discarded; each: TCP connect,"
                + " MPA Request/Reply, QP to RTS, orderly disconnect, QP destroyed)%n",
                r.setupsPerSecond(), r.setups(), r.setupSeconds(), IN_FLIGHT, r.setupFailures(), WARMUP_SETUPS);
        out.printf("idle QPs        %,9d connected at once in %.1f s (%d failed)%n", r.idle() - r.idleFailures(),
                r.idleSeconds(), r.idleFailures());
        out.printf("heap per QP     %,9.1f KiB  (heap used after full GC, before and after, divided by the QPs held;"
                + " this side's QP, connection, channel and socket)%n", r.heapPerQp() / 1024.0);
        out.printf("threads         %,9d -> %d  (no thread per QP)%n", r.threadsBefore(), r.threadsAfter());
        out.printf("file descriptors %,8d -> %d%n", r.fdsBefore(), r.fdsAfter());
        out.flush();
    }
}
