package io.jrnic.conform.fuzz;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.Target;
import io.jrnic.conform.report.PcapReport;
import io.jrnic.conform.wire.Recording;
import io.jrnic.conform.wire.SetupFrame;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fuzz loop: plans from the {@link Mutator}, executions by the {@link Executor}, one connection
 * each, bounded by count and time. A target that dies (the health hook fails, or the next execution
 * cannot reach it within the connect wait) makes a finding: the last execution's reproducer
 * ({@code crash-N.repro}, replayed by {@code jrnic fuzz --replay}) and its pcap go to the output
 * directory; with a before hook (which must bring the target back) the minimiser then cuts the
 * reproducer down, else the run stops.
 */
public final class Fuzzer {
    /** A dead target and the execution before it. */
    public record Finding(long execution, long millis, FuzzInput input, Path reproducer, String how) {
    }

    /** What a run did. */
    public record Stats(long executions, long millis, Map<Observation.Kind, Long> outcomes, List<Finding> findings) {
        public double perSecond() {
            return millis == 0 ? 0 : executions * 1000.0 / millis;
        }
    }

    private final ConformOptions options;
    private final Role role;
    private final Target target;
    private final Path out;
    private final PrintWriter log;
    private final Duration watch;

    public Fuzzer(ConformOptions options, Role role, Target target, Path out, Duration watch, PrintWriter log) {
        this.options = options;
        this.role = role;
        this.target = target;
        this.out = out;
        this.watch = watch;
        this.log = log;
    }

    /** Fuzzes up to {@code maxExecutions} or {@code maxTime}, stopping after {@code maxFindings} findings. */
    public Stats run(long seed, long maxExecutions, Duration maxTime, int maxFindings) throws Exception {
        Files.createDirectories(out);
        Mutator mutator = new Mutator(seed, role);
        Executor exec = new Executor(role, watch);
        SetupFrame base = seedFrame();
        Map<Observation.Kind, Long> outcomes = new EnumMap<>(Observation.Kind.class);
        List<Finding> findings = new ArrayList<>();
        long t0 = System.nanoTime();
        long deadline = t0 + maxTime.toNanos();
        long n = 0;
        long lastReport = t0;
        Executor.Result last = null;
        Recording lastRec = null;
        try (ServerSocket listener = role == Role.RESPONDER ? listen() : null) {
            while (n < maxExecutions && System.nanoTime() < deadline && findings.size() < maxFindings) {
                Mutator.Plan plan = mutator.next(base);
                Recording rec = new Recording("fuzz-" + n);
                CaseContext ctx = new CaseContext(options, rec, listener);
                String dead = null;
                Executor.Result r = null;
                try {
                    r = exec.run(ctx, plan);
                    outcomes.merge(r.observed().kind(), 1L, Long::sum);
                } catch (CaseContext.UnreachableException e) {
                    dead = e.getMessage();
                }
                n++;
                if (dead == null) {
                    dead = target.health();
                    if (dead != null) {
                        last = r;
                        lastRec = rec;
                    }
                }
                if (dead != null && last != null) {
                    long ms = (System.nanoTime() - t0) / 1_000_000L;
                    Path repro = out.resolve("crash-" + (findings.size() + 1) + ".repro");
                    last.sent().write(repro);
                    writePcap(lastRec, out.resolve("crash-" + (findings.size() + 1) + ".pcap"));
                    Finding f = new Finding(n, ms, last.sent(), repro, dead);
                    findings.add(f);
                    log.printf("FINDING %d after %d executions, %.1f s: %s%n  reproducer %s%n", findings.size(), n,
                            ms / 1000.0, dead, repro);
                    log.flush();
                    target.before(null);
                    last = null;
                    continue;
                }
                if (dead != null) {
                    log.println("target unreachable before any execution: " + dead);
                    break;
                }
                last = r;
                lastRec = rec;
                long now = System.nanoTime();
                if (now - lastReport > 5_000_000_000L) {
                    lastReport = now;
                    log.printf("%d executions, %.1f/s, %d findings, outcomes %s%n", n,
                            n * 1e9 / (now - t0), findings.size(), outcomes);
                    log.flush();
                }
            }
        }
        return new Stats(n, (System.nanoTime() - t0) / 1_000_000L, outcomes, findings);
    }

    /** The valid set-up frame every plan starts from (rping's Request or Reply). */
    public SetupFrame seedFrame() {
        io.jrnic.mpa.MpaSetupFrame.Kind kind = role == Role.INITIATOR ? io.jrnic.mpa.MpaSetupFrame.Kind.REQUEST
                : io.jrnic.mpa.MpaSetupFrame.Kind.REPLY;
        return SetupFrame.v2(kind, options.crc(), io.jrnic.mpa.MpaV2Words.of(1, 1), 0);
    }

    private ServerSocket listen() throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new java.net.InetSocketAddress(options.servePort()));
        return s;
    }

    /** Replays a reproducer once; returns what the target did and, after it, whether it lives (null) or why not. */
    public String[] replay(FuzzInput in) throws Exception {
        Recording rec = new Recording("replay");
        try (ServerSocket listener = role == Role.RESPONDER ? listen() : null) {
            Executor.Result r = new Executor(role, watch).replay(new CaseContext(options, rec, listener), in);
            writePcap(rec, out.resolve("replay.pcap"));
            String dead = target.health();
            return new String[] {r.observed().brief() + " (" + r.observed().detail() + ")", dead};
        }
    }

    static void writePcap(Recording rec, Path file) throws IOException {
        if (rec == null) {
            return;
        }
        try (OutputStream o = Files.newOutputStream(file)) {
            PcapReport.writeRecordings(List.of(rec), o);
        }
    }
}
