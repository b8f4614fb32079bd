package io.jrnic.cli.perf;

import io.jrnic.verbs.ConnectOptions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What to run and how. Defaults: all operations, bandwidth at 64 KiB, message rate (bandwidth rows)
 * at 64 B (batched: lists of 16, one signaled per 16; and per message), latency at 64 B; CRC on, no markers, MPA
 * rev 2, automatic MULPDU; 60 s cap per loop; direct memory.
 */
public record PerfConfig(Set<Op> ops, Set<Kind> kinds, List<Integer> sizes, long iterations, int window,
                         boolean crc, boolean markers, int mulpdu, int mpaRevision, long maxSeconds, TcpBaseline tcpBaseline,
                         CaptureFiles capture, int reps, MemoryKind memory, int postList, int cqMod,
                         long stallTimeoutSeconds, long tcpRtoMinMillis) {
    public static final int DEFAULT_BW_SIZE = 64 * 1024;
    /** Alternating RDMA/TCP repetitions per row by default (figures are medians over them). */
    public static final int DEFAULT_REPS = 5;
    public static final int DEFAULT_SMALL_SIZE = 64;
    /**
     * 1 GiB per 64 KiB bandwidth run: long enough for steady state (measured at 64 KiB: RDMA WRITE 0.9 GB/s over
     * 256 MB, 1.5-2.2 GB/s over 2.6 GB or more; the TCP baseline 3.0 and 3.8 GB/s), short enough for 5 repetitions.
     */
    public static final long DEFAULT_BW_ITERS = 16000;
    public static final long DEFAULT_RATE_ITERS = 100000;
    public static final long DEFAULT_LAT_ITERS = 2000;
    public static final int MAX_SIZE = 16 << 20;
    /** Receive slots posted for SEND bandwidth are capped at this many bytes in total. */
    static final int MAX_SLOT_BYTES = 32 << 20;
    /**
     * READs outstanding at most (our ORD and IRD): the soft device's maximum, as ib_read_bw's default
     * (its outstanding reads default to the device's maximum). With 16, 64 B READs were bound by the
     * round trip: 0.32-0.33 Mpps against 0.54-0.66 with 128 (3 alternating rounds, window 64).
     */
    public static final int READ_DEPTH = 128;
    /** The SEND that follows the last RDMA WRITE of a bandwidth test (RFC 5040 section 5.5: delivered after the Writes are placed). */
    static final int FENCE_SIZE = 16;
    /** Warm-up runs take 1/this of a test's iterations. */
    static final int WARM_UP_DIVISOR = 4;
    /** Warm-up rounds repeat until they took this long (the JIT needs about a second of a loop)... */
    static final long WARM_UP_NANOS = 1_000_000_000L;
    /** ...or this many rounds ran. */
    static final int WARM_UP_MAX_ROUNDS = 64;
    /**
     * Pass 1 goes over the whole plan again until this much warm-up time passed (at most
     * {@link #WARM_UP_MAX_PASSES} passes): a single test's 1 s left the JIT compiling during the measured runs
     * (64 B WRITE latency 50-75 us with {@code --test write}, 6 us in the full run).
     */
    static final long WARM_UP_TOTAL_NANOS = 4_000_000_000L;
    static final int WARM_UP_MAX_PASSES = 4;
    /**
     * System property for test runs (cli's surefire configuration sets it): with {@code true}, warm-up is one round
     * per test and one pass over the plan (the minimum every run makes) instead of rounds for
     * {@link #WARM_UP_NANOS} and passes for {@link #WARM_UP_TOTAL_NANOS}. The runs, their connections and their
     * checks are the same; only the time given to the JIT before measuring is not, so the figures of such a run
     * are not for comparison.
     */
    public static final String QUICK_WARM_UP = "jrnic.perf.quickWarmUp";

    /** Whether {@link #QUICK_WARM_UP} is set (read at each run, so that one test can run the full warm-up). */
    static boolean quickWarmUp() {
        return Boolean.getBoolean(QUICK_WARM_UP);
    }

    /** How long a test's warm-up goes round: {@link #WARM_UP_NANOS}, or 0 (one round) with {@link #QUICK_WARM_UP}. */
    static long warmUpNanos() {
        return quickWarmUp() ? 0 : WARM_UP_NANOS;
    }

    /** How long warm-up passes go on: {@link #WARM_UP_TOTAL_NANOS}, or 0 (one pass) with {@link #QUICK_WARM_UP}. */
    static long warmUpTotalNanos() {
        return quickWarmUp() ? 0 : WARM_UP_TOTAL_NANOS;
    }

    public PerfConfig {
        ops = Set.copyOf(ops);
        java.util.Objects.requireNonNull(memory, "memory");
        java.util.Objects.requireNonNull(tcpBaseline, "tcpBaseline");
        kinds = Set.copyOf(kinds);
        sizes = List.copyOf(sizes);
        if (ops.isEmpty() || kinds.isEmpty()) {
            throw new IllegalArgumentException("no test selected");
        }
        for (int s : sizes) {
            if (s < 1 || s > MAX_SIZE) {
                throw new IllegalArgumentException("size must be 1.." + MAX_SIZE + ": " + s);
            }
        }
        if (iterations < 0) {
            throw new IllegalArgumentException("iterations must be >= 1 (0 = default): " + iterations);
        }
        if (window < 1 || window > 512) {
            throw new IllegalArgumentException("window must be 1..512: " + window);
        }
        if (mulpdu != 0 && (mulpdu < 64 || mulpdu > 65535)) {
            throw new IllegalArgumentException("MULPDU must be 64..65535: " + mulpdu);
        }
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("MPA revision must be 1 or 2: " + mpaRevision);
        }
        if (reps < 1 || reps > 99) {
            throw new IllegalArgumentException("reps must be 1..99: " + reps);
        }
        if (postList < 1 || postList > 512) {
            throw new IllegalArgumentException("post list must be 1..512: " + postList);
        }
        if (cqMod < 1 || cqMod > 512) {
            throw new IllegalArgumentException("CQ moderation must be 1..512: " + cqMod);
        }
        if (maxSeconds < 1) {
            throw new IllegalArgumentException("max seconds must be >= 1: " + maxSeconds);
        }
        if (stallTimeoutSeconds < 0) {
            throw new IllegalArgumentException("stall timeout must be >= 0 (0 = off): " + stallTimeoutSeconds);
        }
        ConnectOptions.defaults().tcpRtoMin(java.time.Duration.ofMillis(tcpRtoMinMillis)); // its range is ConnectOptions' rule
    }

    /** Without captures. */
    public PerfConfig(Set<Op> ops, Set<Kind> kinds, List<Integer> sizes, long iterations, int window, boolean crc,
                      boolean markers, int mulpdu, int mpaRevision, long maxSeconds, boolean tcpBaseline) {
        this(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds,
                tcpBaseline ? TcpBaseline.PLAIN : TcpBaseline.NONE, null, 1,
                MemoryKind.DIRECT, PerfCase.DEFAULT_POST_LIST, PerfCase.DEFAULT_CQ_MOD,
                ConnectOptions.DEFAULT_TRANSMIT_STALL_TIMEOUT.toSeconds(), 0);
    }

    /**
     * Each row alternates {@code v} RDMA runs and {@code v} TCP runs (RDMA, TCP, RDMA, TCP...) and reports the
     * median of each side, their min and max, and the ratio of the medians.
     */
    public PerfConfig withReps(int v) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds,
                tcpBaseline, capture, v, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    /** Captures every client connection (see {@link CaptureFiles}); null: none. */
    public PerfConfig withCapture(CaptureFiles v) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds,
                tcpBaseline, v, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public static PerfConfig defaults() {
        return new PerfConfig(EnumSet.allOf(Op.class), EnumSet.allOf(Kind.class), List.of(), 0, 64,
                true, false, 0, 2, 60, true).withReps(DEFAULT_REPS);
    }

    /** Every buffer is direct memory or a heap array (see {@link MemoryKind}); the default is direct. */
    public PerfConfig withMemory(MemoryKind v) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline,
                capture, reps, v, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    /**
     * The batched bandwidth rows ({@link Kind#BW}) post lists of {@code list} work requests per post call and signal
     * one completion per {@code mod} (ib_write_bw's {@code --post_list} and {@code --cq-mod}); the rows take at most
     * the window of each ({@link #plan()}).
     */
    public PerfConfig withPosting(int list, int mod) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline,
                capture, reps, memory, list, mod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withOps(Set<Op> v) {
        return new PerfConfig(v, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withKinds(Set<Kind> v) {
        return new PerfConfig(ops, v, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withSizes(List<Integer> v) {
        return new PerfConfig(ops, kinds, v, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withIterations(long v) {
        return new PerfConfig(ops, kinds, sizes, v, window, crc, markers, mulpdu, mpaRevision, maxSeconds, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withWire(boolean crcOn, boolean markersOn, int mulpduBytes, int rev) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crcOn, markersOn, mulpduBytes, rev, maxSeconds, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withMaxSeconds(long v) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, v, tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    public PerfConfig withTcpBaseline(boolean v) {
        return withTcpBaseline(v ? TcpBaseline.PLAIN : TcpBaseline.NONE);
    }

    public PerfConfig withTcpBaseline(TcpBaseline v) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds, v, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, tcpRtoMinMillis);
    }

    /**
     * The rows to run, in table order: bandwidth rows (per op, per size: per-message, then batched; per-message rows
     * at {@link #DEFAULT_SMALL_SIZE} unless sizes are given, as message rate is their point), busy-polling latency
     * rows, then blocking latency rows on platform threads and on virtual threads (READ and SEND: WRITE latency polls
     * memory and has no blocking form). Batched rows post at most a window's worth per list and per signal.
     */
    public List<PerfCase> plan() {
        List<PerfCase> out = new ArrayList<>();
        for (Op op : Op.values()) {
            if (!ops.contains(op)) {
                continue;
            }
            for (int s : !sizes.isEmpty() ? sizes : List.of(DEFAULT_BW_SIZE, DEFAULT_SMALL_SIZE)) {
                if (kinds.contains(Kind.BW_MSG) && (!sizes.isEmpty() || s == DEFAULT_SMALL_SIZE)) {
                    out.add(new PerfCase(op, Kind.BW_MSG, s, iterations(Kind.BW_MSG, s)));
                }
                if (kinds.contains(Kind.BW)) {
                    out.add(new PerfCase(op, Kind.BW, s, iterations(Kind.BW, s), Math.min(postList, window),
                            Math.min(cqMod, window)));
                }
            }
        }
        for (Kind k : List.of(Kind.LAT, Kind.LAT_BLOCK, Kind.LAT_BLOCK_VT)) {
            if (!kinds.contains(k)) {
                continue;
            }
            for (Op op : Op.values()) {
                if (!ops.contains(op) || !k.has(op)) {
                    continue;
                }
                for (int s : !sizes.isEmpty() ? sizes : List.of(DEFAULT_SMALL_SIZE)) {
                    out.add(new PerfCase(op, k, s, iterations(k, s)));
                }
            }
        }
        return out;
    }

    private long iterations(Kind k, int size) {
        return iterations > 0 ? iterations : defaultIterations(k, size);
    }

    /** Default count: bandwidth rows move about 1 GiB (16000 x 64 KiB) or 100000 messages; latency 2000 round trips. */
    static long defaultIterations(Kind k, int size) {
        if (k.latency()) {
            return DEFAULT_LAT_ITERS;
        }
        return size >= 4096 ? Math.max(100, DEFAULT_BW_ITERS * DEFAULT_BW_SIZE / size) : DEFAULT_RATE_ITERS;
    }

    /** The discarded warm-up run before {@code c} (RDMA and TCP alike): a quarter of its iterations, at least 1. */
    public static PerfCase warmUp(PerfCase c) {
        return c.withIterations(Math.max(1, c.iterations() / WARM_UP_DIVISOR));
    }

    /** Receive slots the server posts for SEND bandwidth (also the client's initial credit). */
    static int sendSlots(int size, int window, long iterations) {
        long slots = Math.min(2L * window, Math.max(2, MAX_SLOT_BYTES / size));
        return (int) Math.min(slots, iterations);
    }

    public long maxNanos() {
        return maxSeconds * 1_000_000_000L;
    }

    /**
     * A QP whose stream the peer does not drain for this long (its outbound data above the low water mark) is reset
     * and goes to ERROR, its work requests flushed ({@link ConnectOptions#transmitStallTimeout}); 0 turns it off.
     */
    public PerfConfig withStallTimeout(long seconds) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds,
                tcpBaseline, capture, reps, memory, postList, cqMod, seconds, tcpRtoMinMillis);
    }

    /**
     * The minimum TCP retransmission timeout of this side's RDMA streams ({@code --tcp-rto-min},
     * {@link ConnectOptions#tcpRtoMin}; 0: the kernel's). The TCP baseline's streams keep the kernel's.
     */
    public PerfConfig withTcpRtoMin(long millis) {
        return new PerfConfig(ops, kinds, sizes, iterations, window, crc, markers, mulpdu, mpaRevision, maxSeconds,
                tcpBaseline, capture, reps, memory, postList, cqMod, stallTimeoutSeconds, millis);
    }

    /** The MPA options both sides use; private data is added by the caller. */
    public ConnectOptions connectOptions() {
        return ConnectOptions.defaults().mpaRevision(mpaRevision).crc(crc).markers(markers).mulpdu(mulpdu)
                .ird(READ_DEPTH).ord(READ_DEPTH).transmitStallTimeout(java.time.Duration.ofSeconds(stallTimeoutSeconds))
                .tcpRtoMin(java.time.Duration.ofMillis(tcpRtoMinMillis));
    }

    /** {@link #connectOptions()} for the next client connection, with its capture file when capturing. */
    public ConnectOptions clientConnectOptions() {
        return capture == null ? connectOptions() : connectOptions().capture(capture.next());
    }
}
