package io.jrnic.examples.srp;

import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrnic srp-bench}: the SRP-style block protocol over jrnic next to the same protocol over
 * plain TCP (Netty), in one run, alternating per repetition: 4 KiB random reads and writes and
 * 1 MiB sequential reads and writes at each queue depth. Every block read is checked against the
 * generation last written to it; every jrnic response must invalidate the command's STag.
 * Figures are medians over the repetitions; the ratio is jrnic / TCP of the medians.
 */
public final class SrpBench {
    private static final int MAX_TRANSFER = 1 << 20;
    private static final long TAKE_SECONDS = 10;

    /** Workloads: operation, blocks per command, random or sequential. */
    public enum Workload {
        RANDREAD_4K(SrpWire.Op.READ, 1, true), RANDWRITE_4K(SrpWire.Op.WRITE, 1, true),
        SEQREAD_1M(SrpWire.Op.READ, 256, false), SEQWRITE_1M(SrpWire.Op.WRITE, 256, false);

        final SrpWire.Op op;
        final int blocks;
        final boolean random;

        Workload(SrpWire.Op op, int blocks, boolean random) {
            this.op = op;
            this.blocks = blocks;
            this.random = random;
        }
    }

    /**
     * @param queueDepths queue depths to measure (each 1..64)
     * @param seconds     time per measured cell (issue stops then; in-flight commands drain)
     * @param reps        repetitions per cell and transport, alternating which transport goes first
     * @param blocks      device size in 4 KiB blocks (a multiple of 256)
     * @param dir         where the device file goes (null: a temporary directory, deleted after)
     */
    public record Settings(int[] queueDepths, double seconds, int reps, long blocks, Path dir) {
        public static Settings defaults() {
            return new Settings(new int[] {1, 4, 16, 64}, 0.25, 3, 16384, null);
        }
    }

    /** One cell's outcome. */
    record Cell(long ops, long bytes, long nanos, long errors, String firstError) {
        double iops() {
            return ops * 1e9 / nanos;
        }

        double mbps() {
            return bytes * 1e9 / nanos / 1e6;
        }
    }

    private final Settings s;
    private final int[] gens;
    private final Random rng = new Random(42);
    private long verifiedBlocks;
    private long errors;
    private String firstError;

    private SrpBench(Settings s) {
        this.s = s;
        gens = new int[Math.toIntExact(s.blocks())];
    }

    /** Runs the benchmark; returns 0 when every command succeeded and every block verified, else 1. */
    public static int run(Settings s, PrintWriter out) throws Exception {
        int maxQd = Arrays.stream(s.queueDepths()).max().orElseThrow();
        if (maxQd < 1 || maxQd > 64 || Arrays.stream(s.queueDepths()).min().orElseThrow() < 1
                || s.blocks() % 256 != 0 || s.blocks() < 256 || s.reps() < 1 || s.seconds() <= 0) {
            throw new IllegalArgumentException("queue depths 1..64, blocks a positive multiple of 256, reps >= 1");
        }
        Path dir = s.dir() != null ? s.dir() : Files.createTempDirectory("srp-bench");
        Path file = dir.resolve("srp-bench-device.img");
        try {
            return new SrpBench(s).run(file, maxQd, out);
        } finally {
            Files.deleteIfExists(file);
            if (s.dir() == null) {
                Files.deleteIfExists(dir);
            }
        }
    }

    private int run(Path file, int maxQd, PrintWriter out) throws Exception {
        InetSocketAddress lo = new InetSocketAddress("127.0.0.1", 0);
        try (BlockDevice device = BlockDevice.open(file, s.blocks());
                RdmaDevice targetDev = Rdma.open("soft");
                RdmaDevice initiatorDev = Rdma.open("soft");
                SrpTarget srpTarget = SrpTarget.start(targetDev, lo, device, maxQd, MAX_TRANSFER);
                TcpBlockTarget tcpTarget = TcpBlockTarget.start(lo, device, maxQd, MAX_TRANSFER)) {
            prefill(device);
            try (SrpInitiator srp = SrpInitiator.connect(initiatorDev, srpTarget.address(), maxQd, MAX_TRANSFER);
                    TcpBlockInitiator tcp = TcpBlockInitiator.connect(tcpTarget.address(), maxQd, MAX_TRANSFER)) {
                out.printf("srp-bench: device %d MiB (file, FileChannel), %.2f s per cell, %d reps alternating, "
                        + "request limit %d, MPA v2 without CRC (ConnectOptions.defaults())%n", s.blocks() * SrpWire.BLOCK >> 20, s.seconds(), s.reps(),
                        srp.requestLimit());
                for (BlockInitiator ini : List.<BlockInitiator>of(srp, tcp)) { // warm-up, not reported
                    cell(ini, Workload.RANDREAD_4K, Math.min(16, maxQd));
                    cell(ini, Workload.SEQWRITE_1M, Math.min(4, maxQd));
                }
                out.printf("%-13s %4s %12s %10s %12s %10s %8s%n", "workload", "qd", "jrnic IOPS", "jrnic MB/s",
                        "tcp IOPS", "tcp MB/s", "ratio");
                for (Workload w : Workload.values()) {
                    for (int qd : s.queueDepths()) {
                        row(out, w, qd, srp, tcp);
                    }
                }
            }
        }
        out.printf("verified %d blocks read back, %d errors%s%n", verifiedBlocks, errors,
                firstError == null ? "" : " (first: " + firstError + ")");
        return errors == 0 ? 0 : 1;
    }

    private void prefill(BlockDevice device) throws Exception {
        ByteBuffer chunk = ByteBuffer.allocateDirect(MAX_TRANSFER);
        for (long lba = 0; lba < s.blocks(); lba += 256) {
            BlockPattern.fill(chunk, lba, 256, gens);
            device.write(lba, chunk.clear());
        }
    }

    private void row(PrintWriter out, Workload w, int qd, BlockInitiator srp, BlockInitiator tcp) throws Exception {
        double[] srpIops = new double[s.reps()];
        double[] srpMb = new double[s.reps()];
        double[] tcpIops = new double[s.reps()];
        double[] tcpMb = new double[s.reps()];
        for (int r = 0; r < s.reps(); r++) {
            boolean srpFirst = r % 2 == 0;
            Cell a = cell(srpFirst ? srp : tcp, w, qd);
            Cell b = cell(srpFirst ? tcp : srp, w, qd);
            Cell sc = srpFirst ? a : b;
            Cell tc = srpFirst ? b : a;
            srpIops[r] = sc.iops();
            srpMb[r] = sc.mbps();
            tcpIops[r] = tc.iops();
            tcpMb[r] = tc.mbps();
        }
        double ratio = median(srpIops) / median(tcpIops);
        out.printf("%-13s %4d %12.0f %10.1f %12.0f %10.1f %8.2f%n", w.name().toLowerCase(), qd, median(srpIops),
                median(srpMb), median(tcpIops), median(tcpMb), ratio);
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    /** Keeps {@code qd} commands in flight for the cell's time, then drains; verifies every completion. */
    Cell cell(BlockInitiator ini, Workload w, int qd) throws Exception {
        int chunks = Math.toIntExact(s.blocks() / w.blocks);
        boolean[] busy = new boolean[chunks];
        long[] slotLba = new long[qd];
        ArrayDeque<Integer> free = new ArrayDeque<>();
        for (int i = 0; i < qd; i++) {
            free.push(i);
        }
        int seq = rng.nextInt(chunks);
        long ops = 0;
        long errs = errors;
        int length = w.blocks * SrpWire.BLOCK;
        long start = System.nanoTime();
        long end = start + (long) (s.seconds() * 1e9);
        while (true) {
            while (!free.isEmpty() && System.nanoTime() < end) {
                int chunk = w.random ? rng.nextInt(chunks) : seq % chunks;
                if (busy[chunk]) {
                    break; // the chunk is in flight: wait for a completion first (no overlapping commands)
                }
                seq++;
                busy[chunk] = true;
                int slot = free.pop();
                long lba = (long) chunk * w.blocks;
                slotLba[slot] = lba;
                if (w.op == SrpWire.Op.WRITE) {
                    for (int b = 0; b < w.blocks; b++) {
                        gens[(int) lba + b]++;
                    }
                    BlockPattern.fill(ini.buffer(slot), lba, w.blocks, gens);
                } else {
                    ini.buffer(slot).clear().put(0, (byte) ~ini.buffer(slot).get(0)); // stale data cannot pass
                }
                ini.submit(slot, w.op, lba, w.blocks);
            }
            if (free.size() == qd) {
                break;
            }
            BlockInitiator.Done d = ini.take(TAKE_SECONDS, TimeUnit.SECONDS);
            long lba = slotLba[d.slot()];
            check(ini, w, d, lba);
            busy[(int) (lba / w.blocks)] = false;
            free.push(d.slot());
            ops++;
        }
        long nanos = System.nanoTime() - start;
        return new Cell(ops, ops * length, nanos, errors - errs, firstError);
    }

    private void check(BlockInitiator ini, Workload w, BlockInitiator.Done d, long lba) {
        String problem = null;
        if (!d.ok()) {
            problem = "status " + d.status() + (d.error() == null ? "" : " " + d.error());
        } else if (ini instanceof SrpInitiator && !d.invalidated()) {
            problem = "response did not invalidate STag 0x" + Integer.toHexString(d.stag());
        } else if (w.op == SrpWire.Op.READ) {
            long bad = BlockPattern.firstMismatch(ini.buffer(d.slot()), lba, w.blocks, gens);
            if (bad >= 0) {
                problem = "block " + bad + " content is not generation " + gens[(int) bad];
            } else {
                verifiedBlocks += w.blocks;
            }
        }
        if (problem != null) {
            errors++;
            if (firstError == null) {
                firstError = ini.name() + " " + w.name().toLowerCase() + " lba " + lba + ": " + problem;
            }
        }
    }
}
