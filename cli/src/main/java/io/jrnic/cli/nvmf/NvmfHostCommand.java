package io.jrnic.cli.nvmf;

import io.jrnic.nvmf.host.NvmfHost;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import java.util.concurrent.Callable;

/**
 * {@code jrnic nvmf host}: connects to a subsystem, writes a pattern over the namespace (or its
 * first --bytes), reads it back and compares. The pattern mixes a per-run seed with the offset, so
 * data left by an earlier run cannot pass.
 */
@Command(name = "host", description = {"Connect to an NVMe/RDMA subsystem; with --verify write a pattern, read it back.",
        "Exit code: 0 ok, 1 connect/I-O failure or data mismatch, 2 bad usage."})
public final class NvmfHostCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ADDR:PORT", description = "the target") String target;
    @Option(names = "--nqn", paramLabel = "NQN", required = true, description = "the subsystem NQN") String nqn;
    @Option(names = "--verify", description = "write a pattern, read it back, compare") boolean verify;
    @Option(names = "--bytes", paramLabel = "N", description = "bytes to cover (K/M/G; default: the namespace)")
    String bytesOption;
    @Option(names = "--queues", paramLabel = "N", defaultValue = "2", description = "I/O queues (default 2)") int queues;
    @Option(names = "--qd", paramLabel = "N", defaultValue = "16", description = "queue depth (default 16)") int qd;
    @Option(names = "--io-size", paramLabel = "BYTES", defaultValue = "128K", description = "I/O size (default 128K)")
    String ioSize;
    @Option(names = "--fast-registration", description = "register per I/O (default: a registered pool per queue)")
    boolean fastRegistration;
    @Option(names = "--crc", description = "request MPA CRC") boolean crc;
    @Option(names = "--first-fpdu-delay-ms", paramLabel = "MS", defaultValue = "0",
            description = "pause after each queue's MPA Reply before its first FPDU (a Linux target over siw needs it: "
                    + "siw's responder race; default 0)")
    long firstFpduDelayMs;
    @Option(names = "--capture", paramLabel = "FILE", description = "write a pcap of the connections to FILE")
    java.nio.file.Path capture;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help") boolean help;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (queues < 1 || qd < 1 || qd > 1024 || firstFpduDelayMs < 0) {
            err.println("nvmf host: --queues >= 1, --qd 1..1024, --first-fpdu-delay-ms >= 0");
            return 2;
        }
        ConnectOptions co = ConnectOptions.defaults().crc(crc).firstFpduDelay(java.time.Duration.ofMillis(firstFpduDelayMs));
        if (capture != null) {
            co = co.capture(capture);
        }
        NvmfHost.Options o = NvmfHost.Options.defaults(nqn).ioQueues(queues).queueDepth(Math.max(2, qd)).connect(co)
                .registration(fastRegistration ? NvmfHost.Registration.FAST_REGISTRATION : NvmfHost.Registration.POOL);
        try (RdmaDevice dev = Rdma.open("soft"); NvmfHost host = NvmfHost.connect(dev, Endpoint.parse(target), o)) {
            long nsBytes = host.blocks() * host.blockSize();
            out.printf("nvmf host: controller %d, namespace 1: %d blocks of %d octets (%d MiB), %d I/O queues, "
                    + "max transfer %d%n", host.controllerId(), host.blocks(), host.blockSize(), nsBytes >> 20,
                    host.ioQueues(), host.maxTransfer());
            if (!verify) {
                return 0;
            }
            long bytes = bytesOption == null ? nsBytes : Endpoint.bytes(bytesOption);
            int io = (int) Math.min(Endpoint.bytes(ioSize), host.maxTransfer());
            if (bytes <= 0 || bytes > nsBytes || io < host.blockSize() || io % host.blockSize() != 0) {
                err.println("nvmf host: --bytes 1.." + nsBytes + ", --io-size a multiple of " + host.blockSize());
                return 2;
            }
            bytes -= bytes % host.blockSize();
            long seed = System.nanoTime();
            long t0 = System.nanoTime();
            pass(host, bytes, io, seed, true);
            host.flush().get(30, TimeUnit.SECONDS);
            long t1 = System.nanoTime();
            long bad = pass(host, bytes, io, seed, false);
            long t2 = System.nanoTime();
            out.printf("nvmf host: wrote %d bytes in %.2f s, read back in %.2f s, %s%n", bytes, (t1 - t0) / 1e9,
                    (t2 - t1) / 1e9, bad < 0 ? "all verified" : "MISMATCH at byte " + bad);
            return bad < 0 ? 0 : 1;
        } catch (java.io.IOException | java.util.concurrent.ExecutionException e) {
            err.println("nvmf host: " + e.getMessage());
            return 1;
        }
    }

    /** Writes (or reads and checks) [0, bytes) in {@code io} pieces, qd x queues in flight; returns the first bad offset or -1. */
    private long pass(NvmfHost host, long bytes, int io, long seed, boolean write) throws Exception {
        int inFlight = qd * queues;
        Deque<Object[]> pending = new ArrayDeque<>();
        long firstBad = -1;
        for (long off = 0; off < bytes || !pending.isEmpty();) {
            if (off < bytes && pending.size() < inFlight) {
                int len = (int) Math.min(io, bytes - off);
                ByteBuffer b = ByteBuffer.allocate(len);
                if (write) {
                    fill(b, off, seed);
                }
                long lba = off / host.blockSize();
                CompletableFuture<Void> f = write ? host.write(lba, b) : host.read(lba, b);
                pending.add(new Object[] {f, b, off});
                off += len;
                continue;
            }
            Object[] p = pending.poll();
            ((CompletableFuture<?>) p[0]).get(30, TimeUnit.SECONDS);
            if (!write && firstBad < 0) {
                firstBad = check((ByteBuffer) p[1], (long) p[2], seed);
            }
        }
        return firstBad;
    }

    static long word(long offset, long seed) {
        long x = offset * 0x9E3779B97F4A7C15L ^ seed;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    private static void fill(ByteBuffer b, long off, long seed) {
        for (int i = 0; i + 8 <= b.capacity(); i += 8) {
            b.putLong(i, word(off + i, seed));
        }
    }

    private static long check(ByteBuffer b, long off, long seed) {
        for (int i = 0; i + 8 <= b.capacity(); i += 8) {
            if (b.getLong(i) != word(off + i, seed)) {
                return off + i;
            }
        }
        return -1;
    }
}
