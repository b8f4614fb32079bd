package io.jrnic.cli.nvmf;

import io.jrnic.examples.srp.BlockDevice;
import io.jrnic.examples.srp.BlockInitiator;
import io.jrnic.examples.srp.SrpWire;
import io.jrnic.examples.srp.TcpBlockInitiator;
import io.jrnic.examples.srp.TcpBlockTarget;
import io.jrnic.nvmf.host.NvmfHost;
import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code jrnic nvmf bench}: the jrnic NVMe/RDMA host against the jrnic target over loopback, next
 * to the SRP example's block protocol over plain TCP (Netty) in the same run: 4 KiB random and
 * 128 KiB sequential reads and writes at each queue depth, alternating which transport goes first
 * per repetition. Every block read is checked against the generation last written to it. Medians
 * over repetitions; ratio = NVMe-oF IOPS / TCP IOPS.
 */
final class NvmfBench {
    static final int BLOCK = SrpWire.BLOCK;
    private static final int MAX_TRANSFER = 128 * 1024;
    private static final String NQN = "nqn.2026-11.io.jrnic:bench";

    enum Workload {
        RANDREAD_4K(false, 1, true), RANDWRITE_4K(true, 1, true), SEQREAD_128K(false, 32, false),
        SEQWRITE_128K(true, 32, false);

        final boolean write;
        final int blocks;
        final boolean random;

        Workload(boolean write, int blocks, boolean random) {
            this.write = write;
            this.blocks = blocks;
            this.random = random;
        }
    }

    record Settings(int[] queueDepths, double seconds, int reps, long blocks, boolean inCapsule) {
    }

    /** One transport under test: submit a command for a slot, take the next completed slot. */
    private interface Side {
        String name();

        ByteBuffer buffer(int slot);

        void submit(int slot, boolean write, long lba, int blocks) throws Exception;

        /** The completed slot; throws on a failed command. */
        int take() throws Exception;

        int[] gens();
    }

    private final Settings s;
    private final Random rng = new Random(42);
    private long verifiedBlocks;
    private long errors;
    private String firstError;

    private NvmfBench(Settings s) {
        this.s = s;
    }

    static int run(Settings s, PrintWriter out) throws Exception {
        int maxQd = Arrays.stream(s.queueDepths()).max().orElseThrow();
        Path dir = Files.createTempDirectory("nvmf-bench");
        Path nvmfFile = dir.resolve("nvmf.img");
        Path tcpFile = dir.resolve("tcp.img");
        try {
            return new NvmfBench(s).run(nvmfFile, tcpFile, maxQd, out);
        } finally {
            Files.deleteIfExists(nvmfFile);
            Files.deleteIfExists(tcpFile);
            Files.deleteIfExists(dir);
        }
    }

    private int run(Path nvmfFile, Path tcpFile, int maxQd, PrintWriter out) throws Exception {
        InetSocketAddress lo = new InetSocketAddress("127.0.0.1", 0);
        long bytes = s.blocks() * BLOCK;
        prefill(nvmfFile, bytes);
        prefill(tcpFile, bytes);
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.file(nvmfFile, bytes, BLOCK);
                NvmfTarget target = NvmfTarget.start(td, lo, NvmfTarget.Config.defaults(NQN), ns);
                BlockDevice device = BlockDevice.open(tcpFile, s.blocks());
                TcpBlockTarget tcpTarget = TcpBlockTarget.start(lo, device, maxQd, MAX_TRANSFER);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1)
                        .queueDepth(Math.max(2, maxQd)).keepAliveMillis(5000).inCapsuleWrites(s.inCapsule()));
                TcpBlockInitiator tcp = TcpBlockInitiator.connect(tcpTarget.address(), maxQd, MAX_TRANSFER)) {
            target.onEvent(e -> {
                if (e.contains("torn down")) {
                    out.println("# nvmf target: " + e);
                }
            });
            Side nvmf = new NvmfSide(host, maxQd, (int) s.blocks());
            Side tcpSide = new TcpSide(tcp, (int) s.blocks());
            out.printf("nvmf bench: namespace %d MiB (file, FileChannel), %.2f s per cell, %d reps alternating; "
                    + "NVMe/RDMA: 1 I/O queue, registered pool, %s; TCP: SRP example "
                    + "block protocol; MPA without CRC%n", bytes >> 20, s.seconds(), s.reps(),
                    s.inCapsule() ? "writes <= 8 KiB in the capsule" : "all data by keyed SGL");
            for (Side side : new Side[] {nvmf, tcpSide}) { // warm-up, not reported
                cell(side, Workload.RANDREAD_4K, Math.min(16, maxQd));
                cell(side, Workload.SEQWRITE_128K, Math.min(4, maxQd));
            }
            out.printf("%-14s %4s %12s %11s %12s %10s %8s%n", "workload", "qd", "nvmf IOPS", "nvmf MB/s", "tcp IOPS",
                    "tcp MB/s", "ratio");
            measure:
            for (Workload w : Workload.values()) {
                for (int qd : s.queueDepths()) {
                    row(out, w, qd, nvmf, tcpSide);
                    if (errors > 0) {
                        out.println("stopped at the first failure");
                        break measure;
                    }
                }
            }
        }
        out.printf("verified %d blocks read back, %d errors%s%n", verifiedBlocks, errors,
                firstError == null ? "" : " (first: " + firstError + ")");
        return errors == 0 ? 0 : 1;
    }

    private static void prefill(Path file, long bytes) throws Exception {
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(MAX_TRANSFER);
            for (long off = 0; off < bytes; off += MAX_TRANSFER) {
                for (int b = 0; b < MAX_TRANSFER / BLOCK; b++) {
                    fill(chunk, b * BLOCK, off / BLOCK + b, 0);
                }
                chunk.clear();
                while (chunk.hasRemaining()) {
                    ch.write(chunk, off + chunk.position());
                }
            }
        }
    }

    private void row(PrintWriter out, Workload w, int qd, Side a, Side b) throws Exception {
        double[] ai = new double[s.reps()];
        double[] am = new double[s.reps()];
        double[] bi = new double[s.reps()];
        double[] bm = new double[s.reps()];
        for (int r = 0; r < s.reps(); r++) {
            boolean aFirst = r % 2 == 0;
            double[] x = cell(aFirst ? a : b, w, qd);
            double[] y = cell(aFirst ? b : a, w, qd);
            double[] ac = aFirst ? x : y;
            double[] bc = aFirst ? y : x;
            ai[r] = ac[0];
            am[r] = ac[1];
            bi[r] = bc[0];
            bm[r] = bc[1];
        }
        out.printf("%-14s %4d %12.0f %11.1f %12.0f %10.1f %8.2f%n", w.name().toLowerCase(), qd, median(ai),
                median(am), median(bi), median(bm), median(ai) / median(bi));
        out.flush();
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    /** Keeps {@code qd} commands in flight for the cell's time, then drains; returns {IOPS, MB/s}. */
    private double[] cell(Side side, Workload w, int qd) throws Exception {
        int chunks = (int) (s.blocks() / w.blocks);
        boolean[] busy = new boolean[chunks];
        long[] slotLba = new long[qd];
        ArrayDeque<Integer> free = new ArrayDeque<>();
        for (int i = 0; i < qd; i++) {
            free.push(i);
        }
        int[] gens = side.gens();
        int seq = rng.nextInt(chunks);
        long ops = 0;
        long start = System.nanoTime();
        long end = start + (long) (s.seconds() * 1e9);
        while (true) {
            while (!free.isEmpty() && System.nanoTime() < end) {
                int chunk = w.random ? rng.nextInt(chunks) : seq % chunks;
                if (busy[chunk]) {
                    break; // that chunk is in flight: no overlapping commands
                }
                seq++;
                busy[chunk] = true;
                int slot = free.pop();
                long lba = (long) chunk * w.blocks;
                slotLba[slot] = lba;
                ByteBuffer buf = side.buffer(slot);
                if (w.write) {
                    for (int b = 0; b < w.blocks; b++) {
                        gens[(int) lba + b]++;
                        fill(buf, b * BLOCK, lba + b, gens[(int) lba + b]);
                    }
                } else {
                    buf.put(0, (byte) ~buf.get(0)); // stale content cannot pass
                }
                side.submit(slot, w.write, lba, w.blocks);
            }
            if (free.size() == qd) {
                break;
            }
            int slot;
            try {
                slot = side.take();
            } catch (SlotFailure e) {
                error(side, w, slotLba[e.slot], e.getMessage());
                slot = e.slot;
            }
            long lba = slotLba[slot];
            if (!w.write) {
                for (int b = 0; b < w.blocks; b++) {
                    if (!matches(side.buffer(slot), b * BLOCK, lba + b, gens[(int) lba + b])) {
                        error(side, w, lba + b, "content is not generation " + gens[(int) lba + b]);
                        break;
                    }
                    verifiedBlocks++;
                }
            }
            busy[(int) (lba / w.blocks)] = false;
            free.push(slot);
            ops++;
        }
        double secs = (System.nanoTime() - start) / 1e9;
        return new double[] {ops / secs, ops * (double) w.blocks * BLOCK / secs / 1e6};
    }

    private void error(Side side, Workload w, long lba, String what) {
        errors++;
        if (firstError == null) {
            firstError = side.name() + " " + w.name().toLowerCase() + " lba " + lba + ": " + what;
        }
    }

    static long word(long lba, int gen, int i) {
        long x = lba * 0x9E3779B97F4A7C15L ^ ((long) gen << 40) ^ i;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    static void fill(ByteBuffer b, int at, long lba, int gen) {
        for (int i = 0; i < BLOCK / 8; i++) {
            b.putLong(at + 8 * i, word(lba, gen, i));
        }
    }

    static boolean matches(ByteBuffer b, int at, long lba, int gen) {
        for (int i = 0; i < BLOCK / 8; i++) {
            if (b.getLong(at + 8 * i) != word(lba, gen, i)) {
                return false;
            }
        }
        return true;
    }

    private static final class SlotFailure extends Exception {
        final int slot;

        SlotFailure(int slot, String what) {
            super(what);
            this.slot = slot;
        }
    }

    /** The jrnic NVMe/RDMA host: a future per command, completions handed over through a queue. */
    private static final class NvmfSide implements Side {
        private final NvmfHost host;
        private final ByteBuffer[] buffers;
        private final BlockingQueue<Object[]> done = new LinkedBlockingQueue<>();
        private final int[] gens;

        NvmfSide(NvmfHost host, int qd, int blocks) {
            this.host = host;
            buffers = new ByteBuffer[qd];
            for (int i = 0; i < qd; i++) {
                buffers[i] = ByteBuffer.allocateDirect(MAX_TRANSFER);
            }
            gens = new int[blocks];
        }

        @Override
        public String name() {
            return "nvmf";
        }

        @Override
        public ByteBuffer buffer(int slot) {
            return buffers[slot];
        }

        @Override
        public int[] gens() {
            return gens;
        }

        @Override
        public void submit(int slot, boolean write, long lba, int blocks) throws Exception {
            ByteBuffer b = buffers[slot].duplicate().position(0).limit(blocks * BLOCK);
            (write ? host.write(lba, b) : host.read(lba, b)).whenComplete((v, e) -> done.add(new Object[] {slot, e}));
        }

        @Override
        public int take() throws Exception {
            Object[] d = done.poll(10, TimeUnit.SECONDS);
            if (d == null) {
                throw new IllegalStateException("nvmf: no completion within 10 s");
            }
            if (d[1] != null) {
                throw new SlotFailure((int) d[0], String.valueOf(d[1]));
            }
            return (int) d[0];
        }
    }

    /** The SRP example's block protocol over plain TCP. */
    private static final class TcpSide implements Side {
        private final BlockInitiator ini;
        private final int[] gens;

        TcpSide(BlockInitiator ini, int blocks) {
            this.ini = ini;
            gens = new int[blocks];
        }

        @Override
        public String name() {
            return "tcp";
        }

        @Override
        public ByteBuffer buffer(int slot) {
            return ini.buffer(slot);
        }

        @Override
        public int[] gens() {
            return gens;
        }

        @Override
        public void submit(int slot, boolean write, long lba, int blocks) throws Exception {
            ini.submit(slot, write ? SrpWire.Op.WRITE : SrpWire.Op.READ, lba, blocks);
        }

        @Override
        public int take() throws Exception {
            BlockInitiator.Done d = ini.take(10, TimeUnit.SECONDS);
            if (!d.ok()) {
                throw new SlotFailure(d.slot(), "status " + d.status() + (d.error() == null ? "" : " " + d.error()));
            }
            return d.slot();
        }
    }
}
