package io.jrnic.cli;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jrnic soak}: moves a volume of mixed RDMA WRITE, READ and SEND traffic of random sizes over several QPs
 * between two soft devices on loopback, and checks every byte end to end: each WRITE is read back with a READ of
 * the same remote range and the CRC32C of what came back must equal that of what was written; each SEND's CRC32C
 * at the receiver must equal the sender's. Prints throughput over time and the mismatch count.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Long-running data-integrity run on loopback: random-size RDMA WRITE (read back and compared),"
                + " READ and SEND over several QPs, CRC32C end to end. Exit code 0: no mismatch; 1: a mismatch or a"
                + " failed work request; 2: bad usage.",
                "Example: jrnic soak --bytes 100G --qps 8"})
public final class SoakCommand implements Callable<Integer> {
    private static final int REGION = 4 << 20;

    @Spec
    CommandSpec spec;
    @Option(names = "--bytes", paramLabel = "N[K|M|G]", defaultValue = "10G",
            description = "volume to move (payload bytes over all QPs, both directions; default 10G = 10^10)")
    String bytes;
    @Option(names = "--qps", paramLabel = "N", defaultValue = "4", description = "queue pairs (one thread each; default 4)")
    int qps;
    @Option(names = "--max-size", paramLabel = "BYTES", defaultValue = "1048576", description = "largest message (default 1 MiB)")
    int maxSize;
    @Option(names = "--seed", defaultValue = "1", description = "seed of sizes, offsets, opcodes and contents")
    long seed;
    @Option(names = "--interval", paramLabel = "S", defaultValue = "5", description = "seconds between progress lines")
    int interval;
    @Option(names = "--no-crc", description = "MPA without CRC")
    boolean noCrc;

    static long parseBytes(String s) {
        String t = s.trim().toUpperCase(Locale.ROOT);
        long mult = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            mult = switch (t.charAt(t.length() - 1)) {
                case 'K' -> 1_000L;
                case 'M' -> 1_000_000L;
                default -> 1_000_000_000L;
            };
            t = t.substring(0, t.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(t), mult);
    }

    @Override
    public Integer call() throws Exception {
        Logs.quietConnections();
        PrintWriter out = spec.commandLine().getOut();
        long volume;
        try {
            volume = parseBytes(bytes);
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("jrnic soak: bad --bytes " + bytes);
            return 2;
        }
        if (qps < 1 || qps > 64 || maxSize < 1 || maxSize > REGION || interval < 1 || volume < 1) {
            spec.commandLine().getErr().println("jrnic soak: --qps 1..64, --max-size 1.." + REGION + ", --interval >= 1");
            return 2;
        }
        AtomicLong moved = new AtomicLong();
        AtomicLong mismatches = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        ConnectOptions options = ConnectOptions.defaults().crc(!noCrc);
        out.printf("jrnic soak: %,d bytes, %d QPs, messages 0..%d B, MPA CRC %s, seed %d%n", volume, qps, maxSize,
                noCrc ? "off" : "on", seed);
        out.flush();
        long t0 = System.nanoTime();
        try (RdmaDevice server = Rdma.open("soft"); RdmaDevice client = Rdma.open("soft")) {
            ProtectionDomain spd = server.allocatePd();
            ProtectionDomain cpd = client.allocatePd();
            BlockingQueue<Peer> accepted = new ArrayBlockingQueue<>(qps);
            Listener l = server.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0), options);
            l.onConnectRequest(r -> {
                Peer p = new Peer(spd, server, true);
                r.accept(p.qp, AcceptOptions.defaults());
                accepted.add(p);
            });
            List<Thread> threads = new ArrayList<>();
            List<Peer> peers = new ArrayList<>();
            for (int i = 0; i < qps; i++) {
                Peer c = new Peer(cpd, client, false);
                client.connectionManager().connect(l.localAddress(), c.qp, options).get(10, TimeUnit.SECONDS);
                Peer s = accepted.poll(10, TimeUnit.SECONDS);
                peers.add(c);
                peers.add(s);
                long share = volume / qps + (i < volume % qps ? 1 : 0);
                SplittableRandom random = new SplittableRandom(seed * 31 + i);
                Thread t = new Thread(() -> pair(c, s, share, maxSize, random, moved, mismatches, failures), "soak-" + i);
                threads.add(t);
                t.start();
            }
            long last = t0;
            long lastBytes = 0;
            while (threads.stream().anyMatch(Thread::isAlive)) {
                Thread.sleep(100);
                long now = System.nanoTime();
                if (now - last >= interval * 1_000_000_000L) {
                    long b = moved.get();
                    out.printf(Locale.ROOT, "%7.1f s  %,18d bytes  %9.1f MB/s  mismatches %d  failed WRs %d%n",
                            (now - t0) / 1e9, b, (b - lastBytes) * 1e3 / (now - last), mismatches.get(), failures.get());
                    out.flush();
                    last = now;
                    lastBytes = b;
                }
            }
            for (Peer p : peers) {
                p.close();
            }
            l.close();
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT, "jrnic soak: %,d bytes in %.1f s = %.1f MB/s; %d mismatches, %d failed work requests%n",
                moved.get(), secs, moved.get() / secs / 1e6, mismatches.get(), failures.get());
        out.flush();
        return mismatches.get() == 0 && failures.get() == 0 ? 0 : 1;
    }

    /** One side of a QP pair: its QP, CQ and a region (target on the server, source and landing on the client). */
    private static final class Peer implements AutoCloseable {
        final CompletionQueue cq;
        final QueuePair qp;
        final byte[] mem = new byte[REGION];
        final byte[] landing;
        final MemoryRegion mr;
        final MemoryRegion landingMr;
        final Completion[] one = Completion.array(1);

        Peer(ProtectionDomain pd, RdmaDevice dev, boolean server) {
            cq = dev.createCq(64);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(8).maxRecvWr(8));
            mr = server ? pd.register(mem, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ)
                    : pd.register(mem, Access.LOCAL_WRITE);
            landing = server ? null : new byte[REGION];
            landingMr = server ? null : pd.register(landing, Access.LOCAL_WRITE);
            if (server) {
                qp.postRecv(RecvWr.of(0, mr.sge(0, REGION)));
            }
        }

        /** The next completion (polling with a 0.1 ms sleep between empty polls). */
        Completion next() throws InterruptedException {
            while (cq.poll(one, 0, 1) == 0) {
                Thread.sleep(0, 100_000);
            }
            return one[0];
        }

        @Override
        public void close() {
            qp.close();
            cq.close();
        }
    }

    private static long crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return c.getValue();
    }

    /** Runs one QP pair until {@code share} bytes moved. */
    private static void pair(Peer c, Peer s, long share, int maxSize, SplittableRandom random, AtomicLong moved,
                             AtomicLong mismatches, AtomicLong failures) {
        try {
            long done = 0;
            while (done < share) {
                int len = (int) Math.min(random.nextInt(maxSize + 1), share - done);
                int local = random.nextInt(REGION - len + 1);
                int remote = random.nextInt(REGION - len + 1);
                switch (random.nextInt(3)) {
                    case 0 -> { // WRITE, then READ the same range back
                        fill(c.mem, local, len, random);
                        c.qp.postSend(SendWr.rdmaWrite().local(c.mr, local, len).remote(s.mr.stag(), remote).signaled());
                        check(c.next(), failures);
                        c.qp.postSend(SendWr.rdmaRead().local(c.landingMr, local, len).remote(s.mr.stag(), remote).signaled());
                        check(c.next(), failures);
                        if (crc(c.mem, local, len) != crc(c.landing, local, len)) {
                            mismatches.incrementAndGet();
                        }
                        moved.addAndGet(2L * len);
                        done += 2L * len;
                    }
                    case 1 -> { // READ whatever the server holds, compared with the server's bytes
                        c.qp.postSend(SendWr.rdmaRead().local(c.landingMr, local, len).remote(s.mr.stag(), remote).signaled());
                        check(c.next(), failures);
                        if (crc(s.mem, remote, len) != crc(c.landing, local, len)) {
                            mismatches.incrementAndGet();
                        }
                        moved.addAndGet(len);
                        done += len;
                    }
                    default -> { // SEND into the server's posted receive (the whole region, offset 0)
                        fill(c.mem, local, len, random);
                        c.qp.postSend(SendWr.send().local(c.mr, local, len).signaled());
                        check(c.next(), failures);
                        Completion r = s.next();
                        check(r, failures);
                        if (r.byteLength() != len || crc(s.mem, 0, len) != crc(c.mem, local, len)) {
                            mismatches.incrementAndGet();
                        }
                        s.qp.postRecv(RecvWr.of(0, s.mr.sge(0, REGION)));
                        moved.addAndGet(len);
                        done += len;
                    }
                }
                if (failures.get() > 0) {
                    return;
                }
            }
        } catch (InterruptedException | RuntimeException e) {
            failures.incrementAndGet();
        }
    }

    private static void fill(byte[] b, int off, int len, SplittableRandom random) {
        long x = random.nextLong();
        for (int i = 0; i < len; i++) {
            if ((i & 7) == 0) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            b[off + i] = (byte) (x >>> ((i & 7) * 8));
        }
    }

    private static void check(Completion c, AtomicLong failures) {
        if (c.status() != CompletionStatus.SUCCESS) {
            failures.incrementAndGet();
        }
    }
}
