package io.jrnic.cli.perf;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a plan: each RDMA test through {@link RdmaPerf}, next to its raw-TCP baseline through
 * {@link TcpPerf} against the same server. Each row alternates {@link PerfConfig#reps()} RDMA runs with as
 * many TCP runs (same kind, size and iterations), so that both sides of a ratio see the same machine load
 * and a noisy moment moves one run, not the median. Warm-up: every
 * RDMA test and every TCP baseline first runs {@link PerfConfig#warmUp} (a quarter of its iterations,
 * same size, same window, own connection; figures discarded, failures reported), repeated until it took
 * {@link PerfConfig#WARM_UP_NANOS} (at most {@link PerfConfig#WARM_UP_MAX_ROUNDS} rounds), all of them
 * before the first measured run; then each measured run follows one more warm-up round of its own. The
 * measured runs of both sides start with compiled code and warm allocators, whatever their order. Test runs may
 * shorten the warm-up to its minimum (one round each, one pass): {@link PerfConfig#QUICK_WARM_UP}.
 */
public final class PerfRunner {
    private PerfRunner() {
    }

    /** One process: a {@link PerfServer} on 127.0.0.1 ({@code port} 0 = ephemeral) and the client. */
    public static List<Result> local(PerfConfig cfg, String provider, int port, PrintWriter progress) throws IOException {
        try (PerfServer server = new PerfServer(cfg, provider, new InetSocketAddress("127.0.0.1", port),
                port == 0 ? 0 : -1, progress)) {
            return client(cfg, provider, server.rdmaAddress(), server.baselineAddress(), progress);
        }
    }

    /** The client against a server at {@code rdma} whose control and baseline port is {@code baseline}. */
    public static List<Result> client(PerfConfig cfg, String provider, InetSocketAddress rdma, InetSocketAddress baseline,
                                      PrintWriter progress) throws IOException {
        List<Result> out = new ArrayList<>();
        Map<String, String> warmFailures = new HashMap<>();
        Set<String> tcpWarmed = new HashSet<>();
        List<PerfCase> plan = cfg.plan();
        try (RdmaPerf rp = new RdmaPerf(cfg, provider, rdma, baseline)) {
            // pass 1: every test and every baseline warms up (rounds for >= WARM_UP_NANOS) before anything is
            // measured, so that no row pays for compiling code that a later row also runs; a short plan (one test)
            // goes round again until WARM_UP_TOTAL_NANOS passed (the compiler needs seconds, not one test's second)
            long warmStart = System.nanoTime();
            long passesFor = PerfConfig.warmUpTotalNanos();
            for (int pass = 0; pass == 0 || (pass < PerfConfig.WARM_UP_MAX_PASSES
                    && System.nanoTime() - warmStart < passesFor); pass++) {
                tcpWarmed.clear();
                for (PerfCase c : plan) {
                    if (c.kind().virtualThreads() && !VirtualThreads.available()) {
                        continue; // its row says why (row below)
                    }
                    PerfCase w = PerfConfig.warmUp(c);
                    say(progress, "warming up " + c.name() + " " + c.size() + " B x " + w.iterations());
                    String f = warmRdma(rp, w, PerfConfig.WARM_UP_MAX_ROUNDS);
                    if (rp.busy() != null) {
                        return refused(plan, rp.busy()); // no baseline traffic beside another client's tests
                    }
                    if (f != null) {
                        warmFailures.putIfAbsent(c.name() + "/" + c.size(), "warm-up: " + f);
                    }
                    if (cfg.tcpBaseline().on() && tcpWarmed.add(key(c))) {
                        say(progress, "warming up tcp " + c.kind().label() + " " + c.size() + " B x " + w.iterations());
                        warmTcp(w, baseline, cfg.maxNanos(), PerfConfig.WARM_UP_MAX_ROUNDS, crcFrame(cfg, rp));
                    }
                }
            }
            // pass 2: each row alternates k RDMA runs and k TCP runs (RDMA, TCP, RDMA, TCP...), each after one
            // warm-up round of its own (fresh connection, caches), so that both sides of a ratio see the same load
            for (PerfCase c : plan) {
                out.add(row(cfg, rp, c, warmFailures.get(c.name() + "/" + c.size()), baseline, progress));
            }
        }
        return out;
    }

    private static Result row(PerfConfig cfg, RdmaPerf rp, PerfCase c, String warmFailure, InetSocketAddress baseline,
                              PrintWriter progress) {
        if (c.kind().virtualThreads() && !VirtualThreads.available()) {
            return Result.skipped(c, VirtualThreads.NEEDS);
        }
        PerfCase w = PerfConfig.warmUp(c);
        List<BwFigure> rdmaBw = new ArrayList<>();
        List<LatFigure> rdmaLat = new ArrayList<>();
        List<BwFigure> tcpBw = new ArrayList<>();
        List<LatFigure> tcpLat = new ArrayList<>();
        String failure = null;
        String note = null;
        for (int k = 1; k <= cfg.reps() && failure == null; k++) {
            String again = warmRdma(rp, w, 1);
            if (warmFailure == null && again != null) {
                warmFailure = "warm-up: " + again;
            }
            say(progress, "running " + c.name() + " " + c.size() + " B x " + c.iterations() + " (" + k + "/" + cfg.reps() + ")");
            RdmaPerf.Outcome o = rp.run(c);
            if (o.failure() != null) {
                failure = o.failure();
                break;
            }
            note = o.note() != null ? o.note() : note;
            if (c.kind().bandwidth()) {
                rdmaBw.add(o.bw());
            } else {
                rdmaLat.add(o.lat());
            }
            if (cfg.tcpBaseline().on()) {
                say(progress, "running tcp " + c.kind().label() + " " + c.size() + " B x " + c.iterations()
                        + " (" + k + "/" + cfg.reps() + ")");
                try {
                    int frame = crcFrame(cfg, rp);
                    warmTcp(w, baseline, cfg.maxNanos(), 1, frame);
                    Object base = baseline(c, baseline, cfg.maxNanos(), frame);
                    if (base instanceof BwFigure b) {
                        tcpBw.add(b);
                    } else if (base instanceof TcpLat l) {
                        tcpLat.add(c.op() == Op.READ ? l.whole() : l.half());
                    }
                } catch (IOException | RuntimeException e) {
                    failure = "tcp baseline: " + RdmaPerf.describe(e);
                }
            }
        }
        failure = failure != null ? failure : warmFailure;
        return c.kind().bandwidth() ? Result.bwRuns(c, rdmaBw, tcpBw, failure, note)
                : Result.latRuns(c, rdmaLat, tcpLat, failure, note);
    }

    /** Every row of the plan failed with the server's refusal (it serves another client: {@link Control#BUSY}). */
    private static List<Result> refused(List<PerfCase> plan, String why) {
        List<Result> out = new ArrayList<>();
        for (PerfCase c : plan) {
            out.add(c.kind().bandwidth() ? Result.bwRuns(c, List.of(), List.of(), why, null)
                    : Result.latRuns(c, List.of(), List.of(), why, null));
        }
        return out;
    }

    private static String key(PerfCase c) {
        return c.kind() + "/" + c.size() + "/" + c.iterations();
    }

    /** Runs {@code w} until {@link PerfConfig#WARM_UP_NANOS} passed or {@code maxRounds} ran; the first failure, or null. */
    private static String warmRdma(RdmaPerf rp, PerfCase w, int maxRounds) {
        long t0 = System.nanoTime();
        long roundsFor = PerfConfig.warmUpNanos();
        for (int round = 0; round < maxRounds && (round == 0 || System.nanoTime() - t0 < roundsFor); round++) {
            String f = rp.run(w).failure();
            if (f != null) {
                return f;
            }
        }
        return null;
    }

    /**
     * The CRC baseline's frame length ({@link TcpBaseline#CRC}): the MULPDU of the RDMA run before it, -1 when none
     * connected; 0 (no frames) for the plain baseline.
     */
    private static int crcFrame(PerfConfig cfg, RdmaPerf rp) {
        if (cfg.tcpBaseline() != TcpBaseline.CRC) {
            return 0;
        }
        return rp.mulpdu() > 0 ? rp.mulpdu() : -1;
    }

    /** The TCP baseline's warm-up, same rule as {@link #warmRdma}; a failure shows in the measured run. */
    private static void warmTcp(PerfCase w, InetSocketAddress addr, long maxNanos, int maxRounds, int crcFrame) {
        long t0 = System.nanoTime();
        long roundsFor = PerfConfig.warmUpNanos();
        try {
            for (int round = 0; round < maxRounds && (round == 0 || System.nanoTime() - t0 < roundsFor); round++) {
                baseline(w, addr, maxNanos, crcFrame);
            }
        } catch (IOException | RuntimeException e) {
            // the measured baseline run reports it
        }
    }

    /**
     * The raw-TCP figure for a case: a stream for BW and BW_MSG, a busy-polling ping-pong for LAT, a blocking one
     * for LAT_BLOCK, a blocking one between virtual threads for LAT_BLOCK_VT (scaled like the RDMA row).
     */
    static Object baseline(PerfCase c, InetSocketAddress addr, long maxNanos, int crcFrame) throws IOException {
        if (c.kind().bandwidth()) {
            if (crcFrame < 0) {
                throw new IOException("--tcp-crc: no MULPDU to frame by (the RDMA run did not connect)");
            }
            return TcpPerf.bandwidth(addr, c.size(), c.iterations(), maxNanos, crcFrame);
        }
        TcpPerf.Run r = switch (c.kind()) {
            case LAT -> TcpPerf.busyPingPong(addr, c.size(), c.iterations(), maxNanos);
            case LAT_BLOCK_VT -> onVirtualThread(() -> TcpPerf.pingPong(addr, c.size(), c.iterations(), maxNanos,
                    TcpPerf.VIRTUAL_ECHO));
            default -> TcpPerf.pingPong(addr, c.size(), c.iterations(), maxNanos);
        };
        if (r.iterations() == 0) {
            throw new IOException("no TCP round trip within the cap");
        }
        return new TcpLat(LatFigure.of(r.samples(), (int) r.iterations(), 0.5),
                LatFigure.of(r.samples(), (int) r.iterations(), 1.0));
    }

    private static TcpPerf.Run onVirtualThread(java.util.concurrent.Callable<TcpPerf.Run> task) throws IOException {
        try {
            return VirtualThreads.call(task);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** The TCP ping-pong as half (write/send convention) and whole (read convention) round trips. */
    record TcpLat(LatFigure half, LatFigure whole) {
    }

    private static void say(PrintWriter p, String s) {
        if (p != null) {
            p.println(s);
            p.flush();
        }
    }
}
