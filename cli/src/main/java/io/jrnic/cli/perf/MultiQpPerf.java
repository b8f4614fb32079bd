package io.jrnic.cli.perf;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.CqInit;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.SendWr;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code jrnic perf --qps N}: aggregate RDMA WRITE bandwidth of N QPs over one client device and one server device
 * in this process (each device's event loops carry all its QPs), against N TCP streams, each fed by a thread of its
 * own, driven by a thread of its own that blocks on the QP's CQ between posts (as each TCP stream's sender blocks in write). Each repetition
 * runs RDMA for the given seconds, then TCP for as long, alternating; the figures are medians over the
 * repetitions. Every RDMA run ends with a check that each QP's target region holds the bytes of its source. The
 * regions are direct memory or heap arrays as {@link MemoryKind} says.
 */
public final class MultiQpPerf {
    /** Outstanding Writes per QP. */
    static final int WINDOW = 16;

    /**
     * One row: per-repetition aggregate MB/s and CPU of both sides ({@link CpuClock}; null after a failed run);
     * {@code tcpMbps} and {@code tcpCpu} null when the TCP baseline was skipped; {@code tcpCrcFrame} the streams' CRC
     * frame length ({@code --tcp-crc}; 0: plain streams).
     */
    public record Report(int qps, int size, int seconds, MemoryKind memory, double[] rdmaMbps, double[] tcpMbps,
                         String failure, CpuClock.Use[] rdmaCpu, CpuClock.Use[] tcpCpu, int tcpCrcFrame) {
        public double rdmaMedian() {
            return median(rdmaMbps);
        }

        public double tcpMedian() {
            return median(tcpMbps);
        }

        /** The machine's core-seconds per GB of each RDMA run, median (NaN: not read). */
        public double rdmaHostSecondsPerGb() {
            return medianSecondsPerGb(rdmaMbps, rdmaCpu);
        }

        public double tcpHostSecondsPerGb() {
            return medianSecondsPerGb(tcpMbps, tcpCpu);
        }

        private static double medianSecondsPerGb(double[] mbps, CpuClock.Use[] cpu) {
            if (mbps == null || cpu == null) {
                return Double.NaN;
            }
            double[] v = new double[mbps.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = cpu[i] == null || mbps[i] <= 0 ? Double.NaN : cpu[i].hostCores() * 1e3 / mbps[i]; // cores / (GB/s)
            }
            return Arrays.stream(v).anyMatch(Double::isNaN) ? Double.NaN : median(v);
        }

        /** Cores the machine kept busy, median over the runs of one side (NaN: not read). */
        static double medianCores(CpuClock.Use[] cpu) {
            if (cpu == null || Arrays.stream(cpu).anyMatch(u -> u == null || Double.isNaN(u.hostCores()))) {
                return Double.NaN;
            }
            return median(Arrays.stream(cpu).mapToDouble(CpuClock.Use::hostCores).toArray());
        }
    }

    /** One run: aggregate MB/s and the CPU it used. */
    record Rate(double mbps, CpuClock.Use cpu) {
    }

    private MultiQpPerf() {
    }

    /**
     * {@code baseline} NONE ({@code --no-tcp}): the RDMA rows alone, warm-up included; CRC: the TCP streams carry a
     * CRC32C per MULPDU of the QPs' connections ({@link TcpCrcStream}).
     */
    public static Report run(String provider, ConnectOptions options, MemoryKind memory, int qps, int size, int seconds,
                             int reps, TcpBaseline baseline, PrintWriter progress) throws Exception {
        boolean withTcp = baseline.on();
        double[] rdma = new double[reps];
        double[] tcp = withTcp ? new double[reps] : null;
        CpuClock.Use[] rdmaCpu = new CpuClock.Use[reps];
        CpuClock.Use[] tcpCpu = withTcp ? new CpuClock.Use[reps] : null;
        int frame;
        try (RdmaDevice server = Rdma.open(provider); RdmaDevice client = Rdma.open(provider)) {
            Pairs pairs = Pairs.connect(server, client, options, memory, qps, size);
            frame = baseline != TcpBaseline.CRC ? 0
                    : TcpCrcStream.frameFor(pairs.senders.get(0), options.mulpdu(), options.markers());
            if (baseline == TcpBaseline.CRC && frame == 0) {
                return new Report(qps, size, seconds, memory, rdma, tcp, "--tcp-crc: the QPs' MSS is unknown", null, null, 0);
            }
            // warm-up of each side (not counted), so that neither run pays for the JIT compiling its path: rounds of
            // both until a round's compilation time is small (on 2 busy cores C2 queues up for many seconds)
            say(progress, "warming up " + qps + " QPs RDMA WRITE" + (withTcp ? " and " + qps + " TCP streams " : " ")
                    + size + " B");
            JitSettle settle = new JitSettle();
            long round = TimeUnit.MILLISECONDS.toNanos(Math.max(1000, seconds * 500L));
            do {
                pairs.writeFor(round);
                if (withTcp) {
                    TcpStreams.run(qps, size, round, frame);
                }
            } while (!settle.settled(2 * round) && !PerfConfig.quickWarmUp()); // test runs: one round
            say(progress, settle.describe());
            for (int k = 0; k < reps; k++) {
                say(progress, "running " + qps + " QPs RDMA WRITE " + size + " B (" + (k + 1) + "/" + reps + ")");
                Rate r = pairs.writeFor(TimeUnit.SECONDS.toNanos(seconds));
                rdma[k] = r.mbps();
                rdmaCpu[k] = r.cpu();
                String bad = pairs.verify();
                if (bad != null) {
                    return new Report(qps, size, seconds, memory, rdma, tcp, bad, null, null, frame);
                }
                if (withTcp) {
                    say(progress, "running " + qps + " TCP streams " + size + " B (" + (k + 1) + "/" + reps + ")");
                    Rate r2 = TcpStreams.run(qps, size, TimeUnit.SECONDS.toNanos(seconds), frame);
                    tcp[k] = r2.mbps();
                    tcpCpu[k] = r2.cpu();
                }
            }
        }
        return new Report(qps, size, seconds, memory, rdma, tcp, null, rdmaCpu, tcpCpu, frame);
    }

    /** N connected QP pairs, each writing its own source region into its own target region. */
    private static final class Pairs {
        final List<QueuePair> senders = new ArrayList<>();
        final List<Cq> cqs = new ArrayList<>();
        final List<MemoryRegion> src = new ArrayList<>();
        final List<MemoryRegion> dst = new ArrayList<>();
        final List<PerfBuffer> dstBytes = new ArrayList<>();
        final List<PerfBuffer> srcBytes = new ArrayList<>();
        final int size;

        Pairs(int size) {
            this.size = size;
        }

        static Pairs connect(RdmaDevice server, RdmaDevice client, ConnectOptions options, MemoryKind memory, int n,
                             int size) throws Exception {
            Pairs p = new Pairs(size);
            ProtectionDomain spd = server.allocatePd();
            ProtectionDomain cpd = client.allocatePd();
            CompletionQueue scq = server.createCq(CqInit.of(4 * n + 16).context("qps-server"));
            BlockingQueue<Boolean> accepted = new LinkedBlockingQueue<>();
            Listener l = server.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    options);
            l.onConnectRequest(r -> r.accept(spd.createQp(QpInit.rc(scq).maxSendWr(4).maxRecvWr(4)),
                    AcceptOptions.defaults()).whenComplete((c, e) -> accepted.add(e == null)));
            for (int i = 0; i < n; i++) {
                PerfBuffer s = PerfBuffer.allocate(memory, size);
                s.fill(0, size);
                s.set(0, (byte) i); // each QP's bytes differ
                PerfBuffer d = PerfBuffer.allocate(memory, size);
                p.srcBytes.add(s);
                p.dstBytes.add(d);
                p.src.add(s.register(cpd, Access.LOCAL_WRITE));
                p.dst.add(d.register(spd, Access.LOCAL_WRITE, Access.REMOTE_WRITE));
                CompletionQueue cq = Cq.create(client, 2 * WINDOW, "qps-" + i);
                QueuePair qp = cpd.createQp(QpInit.rc(cq).maxSendWr(WINDOW).maxRecvWr(4));
                client.connectionManager().connect(l.localAddress(), qp, options).get(30, TimeUnit.SECONDS);
                p.senders.add(qp);
                p.cqs.add(new Cq(cq));
            }
            // a responder is established at the initiator's first FPDU: the first Writes do that
            return p;
        }

        /**
         * Every QP keeps WINDOW Writes outstanding for {@code nanos}, each from a thread of its own that blocks on the
         * QP's CQ ({@code take}) between posts, as each TCP stream has a sender thread blocking in {@code write}: like
         * for like, and the posting threads (which transmit in place) spread over the cores as the TCP senders do.
         * Aggregate MB/s.
         */
        Rate writeFor(long nanos) throws Exception {
            int n = senders.size();
            long[] done = new long[n];
            java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            CpuClock.Sample c0 = CpuClock.now();
            long t0 = System.nanoTime(); // after the sample, whose /proc/stat read is not the run's time
            long end = t0 + nanos;
            for (int i = 0; i < n; i++) {
                int k = i;
                threads.add(new Thread(() -> {
                    try {
                        done[k] = writer(k, end);
                    } catch (Throwable e) {
                        failed.compareAndSet(null, e);
                    }
                }, "qps-writer-" + i));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(nanos / 1_000_000 + 60_000);
                if (t.isAlive()) {
                    throw new TimeoutException(t.getName() + ": Writes still outstanding 60 s after the run");
                }
            }
            if (failed.get() instanceof Exception e) {
                throw e;
            } else if (failed.get() != null) {
                throw new IllegalStateException(failed.get());
            }
            long t1 = System.nanoTime();
            long total = Arrays.stream(done).sum();
            return new Rate((double) total * size * 1e3 / (t1 - t0), CpuClock.between(c0, CpuClock.now()));
        }

        /** QP {@code i}'s thread: WINDOW signaled Writes outstanding until {@code end}, then drained. Writes done. */
        private long writer(int i, long end) throws Exception {
            QueuePair qp = senders.get(i);
            Cq cq = cqs.get(i);
            long posted = 0;
            long completed = 0;
            while (true) {
                if (System.nanoTime() < end) {
                    while (posted - completed < WINDOW) {
                        qp.postSend(SendWr.rdmaWrite().id(posted).local(src.get(i), 0, size)
                                .remote(dst.get(i).stag(), 0).signaled());
                        posted++;
                    }
                } else if (completed == posted) {
                    return completed;
                }
                int got = cq.take(java.time.Duration.ofSeconds(30));
                if (got == 0) {
                    throw new TimeoutException("QP " + i + ": no completion in 30 s");
                }
                completed += got;
            }
        }

        /** Null when every target region holds its source's bytes, else what differs. */
        String verify() {
            for (int i = 0; i < srcBytes.size(); i++) {
                if (!srcBytes.get(i).sameBytes(dstBytes.get(i))) {
                    return "QP " + i + ": the target region does not hold the bytes written";
                }
            }
            return null;
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }

    /** The text the command prints. */
    public static void print(PrintWriter out, Report r) {
        String tcp = r.tcpMbps() == null ? "" : " vs " + r.qps() + " TCP streams (a sender and a receiver thread each,"
                + " 64 KiB writes" + (r.tcpCrcFrame() > 0 ? ", a CRC32C per " + r.tcpCrcFrame() + " octets (--tcp-crc)" : "") + ")";
        out.printf("jrnic perf --qps %d: aggregate RDMA WRITE of %d QPs (one client and one server device in this"
                + " process, window %d each, %s memory)%s, %d B messages, %d s per run, %d %srepetitions;"
                + " medians, min-max%n",
                r.qps(), r.qps(), WINDOW, r.memory().label(), tcp, r.size(), r.seconds(), r.rdmaMbps().length,
                r.tcpMbps() == null ? "" : "alternating ");
        out.printf("TCP congestion control %s (this host's: RDMA's streams and TCP's alike)%n", TcpCongestion.ofThisHost());
        out.printf("RDMA WRITE  %,10.0f MB/s  (%s)%n", r.rdmaMedian(), range(r.rdmaMbps()));
        if (r.tcpMbps() == null) {
            out.println("TCP         skipped (--no-tcp)");
        } else {
            out.printf("TCP         %,10.0f MB/s  (%s)%n", r.tcpMedian(), range(r.tcpMbps()));
            out.printf("ratio       %10.2f%n", r.rdmaMedian() / r.tcpMedian());
        }
        double rs = r.rdmaHostSecondsPerGb();
        if (!Double.isNaN(rs)) {
            double ts = r.tcpHostSecondsPerGb();
            out.printf(java.util.Locale.ROOT, "CPU         this machine (/proc/stat), medians: RDMA %.2f cores busy, %.3f core-s/GB%s%n",
                    Report.medianCores(r.rdmaCpu()), rs, Double.isNaN(ts) ? ""
                            : String.format(java.util.Locale.ROOT, "; TCP %.2f cores, %.3f core-s/GB; s/GB ratio %.2f",
                                    Report.medianCores(r.tcpCpu()), ts, rs / ts));
        }
        if (r.failure() != null) {
            out.println("FAILED: " + r.failure());
        }
        out.flush();
    }

    private static String range(double[] v) {
        return String.format("%,.0f-%,.0f", Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0));
    }

    private static void say(PrintWriter p, String s) {
        if (p != null) {
            p.println(s);
            p.flush();
        }
    }
}
