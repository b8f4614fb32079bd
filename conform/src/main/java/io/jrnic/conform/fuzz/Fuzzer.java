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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The fuzz loop: plans from the {@link Mutator}, executions by a {@link Runner}, one connection each,
 * bounded by count and time. The target's death makes a finding: the crash hook's signal ({@link
 * Target#crashed}, polled during each watch window and before each next execution), the health hook, or
 * no connection within the connect wait. The execution during which the signal came and any after it are
 * not counted as outcomes. A {@link CulpritSearch} then replays the window of recent executions on fresh
 * targets (the before hook) and says which execution or sequence reproduces the crash, or that none does;
 * everything goes under {@code out/finding-N/}.
 */
public final class Fuzzer {
    /** A dead target: at which execution the death was seen, how, and what reproduces it. */
    public record Finding(long execution, long millis, String how, CulpritSearch.Result result) {
    }

    /** What a run did: {@code millis} is the time spent fuzzing (culprit searches excluded). */
    public record Stats(long executions, long millis, Map<Observation.Kind, Long> outcomes, List<Finding> findings) {
        public double perSecond() {
            return millis == 0 ? 0 : executions * 1000.0 / millis;
        }
    }

    /** What a replay did: the last execution's observation and the crash evidence (null: the target lives). */
    public record Replay(String observed, String dead) {
    }

    /** Opens the runner for a run or a replay (the listener lives as long as it). */
    @FunctionalInterface
    public interface Runners {
        Runner open() throws IOException;
    }

    private record Executed(long execution, long nanos, FuzzInput input) {
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final ConformOptions options;
    private final Role role;
    private final Target target;
    private final Path out;
    private final PrintWriter log;
    private final Runners runners;
    private CulpritSearch.Options search = CulpritSearch.Options.defaults();
    private boolean freshTargets;
    private Runner runner;
    private CrashWatch watch;

    public Fuzzer(ConformOptions options, Role role, Target target, Path out, Duration watch, PrintWriter log) {
        this(options, role, target, out, log, () -> new NetworkRunner(options, role, watch));
    }

    /** With another runner (tests: a model of a target). */
    public Fuzzer(ConformOptions options, Role role, Target target, Path out, PrintWriter log, Runners runners) {
        this.options = options;
        this.role = role;
        this.target = target;
        this.out = out;
        this.log = log;
        this.runners = runners;
    }

    /**
     * The culprit search's options; {@code freshTargets}: the before hook brings a fresh target (without it a
     * finding is not searched and the run stops at the first).
     */
    public Fuzzer searching(CulpritSearch.Options o, boolean fresh) {
        this.search = o;
        this.freshTargets = fresh;
        return this;
    }

    /** Fuzzes up to {@code maxExecutions} or {@code maxTime}, stopping after {@code maxFindings} findings. */
    public Stats run(long seed, long maxExecutions, Duration maxTime, int maxFindings) throws Exception {
        Files.createDirectories(out);
        Mutator mutator = new Mutator(seed, role);
        SetupFrame base = seedFrame();
        Map<Observation.Kind, Long> outcomes = new EnumMap<>(Observation.Kind.class);
        List<Finding> findings = new ArrayList<>();
        ArrayDeque<Executed> window = new ArrayDeque<>();
        long t0 = System.nanoTime();
        long deadline = t0 + maxTime.toNanos();
        long n = 0;
        long lastReport = t0;
        long searching = 0;
        Recording lastRec = null;
        try (Runner r0 = runners.open(); CrashWatch w = new CrashWatch(target, POLL)) {
            runner = r0;
            watch = w;
            while (n < maxExecutions && System.nanoTime() < deadline && findings.size() < maxFindings) {
                String dead = w.check();
                if (dead == null) {
                    Mutator.Plan plan = mutator.next(base);
                    Recording rec = new Recording("fuzz-" + (n + 1));
                    long start = System.nanoTime();
                    n++;
                    Executor.Result r = null;
                    try {
                        r = r0.run(plan, rec);
                        window.addLast(new Executed(n, start, r.sent()));
                        lastRec = rec;
                        trim(window, start);
                    } catch (CaseContext.UnreachableException e) {
                        dead = "no connection from the target: " + e.getMessage();
                    }
                    if (dead == null) {
                        dead = w.check();   // a signal during the watch window: this execution is not counted
                    }
                    if (dead == null) {
                        outcomes.merge(r.observed().kind(), 1L, Long::sum);
                        dead = target.health();
                    }
                }
                if (dead != null && window.isEmpty()) {
                    log.println("target unreachable before any execution: " + dead);
                    break;
                }
                if (dead != null) {
                    long ms = (System.nanoTime() - t0 - searching) / 1_000_000L;
                    Path dir = Files.createDirectories(out.resolve("finding-" + (findings.size() + 1)));
                    writePcap(List.of(lastRec), dir.resolve("last.pcap"));
                    log.printf("FINDING %d at execution %d, %.1f s: %s%n  searching the culprit among executions %d..%d%n",
                            findings.size() + 1, n, ms / 1000.0, dead, window.peekFirst().execution(),
                            window.peekLast().execution());
                    log.flush();
                    long s0 = System.nanoTime();
                    List<Reproducer.Step> steps = window.stream().map(e -> new Reproducer.Step(e.execution(), e.input()))
                            .toList();
                    CulpritSearch.Result res = new CulpritSearch((rep, label) -> trial(rep, dir.resolve(label + ".pcap")),
                            search, base, log).search(steps, n, freshTargets, dir);
                    findings.add(new Finding(n, ms, dead, res));
                    log.printf("FINDING %d: %s: %s%n", findings.size(), res.summary(), res.file());
                    log.flush();
                    if (!freshTargets || findings.size() >= maxFindings || n >= maxExecutions) {
                        searching += System.nanoTime() - s0;
                        break;
                    }
                    fresh();   // the run goes on
                    searching += System.nanoTime() - s0;
                    deadline += System.nanoTime() - s0;   // --seconds caps the fuzzing, not the search
                    window.clear();
                    lastRec = null;
                    continue;
                }
                long now = System.nanoTime();
                if (now - lastReport > 5_000_000_000L) {
                    lastReport = now;
                    log.printf("%d executions, %.1f/s, %d findings, outcomes %s%n", n,
                            n * 1e9 / (now - t0 - searching), findings.size(), outcomes);
                    log.flush();
                }
            }
        } finally {
            runner = null;
            watch = null;
        }
        return new Stats(n, (System.nanoTime() - t0 - searching) / 1_000_000L, outcomes, findings);
    }

    /** Keeps the executions of the last {@code windowSeconds} (and the one running at that bound), at most windowMax. */
    private void trim(ArrayDeque<Executed> window, long now) {
        long bound = now - search.windowSeconds() * 1_000_000_000L;
        while (window.size() > search.windowMax()) {
            window.removeFirst();
        }
        while (window.size() > 1) {
            java.util.Iterator<Executed> it = window.iterator();
            it.next();
            if (it.next().nanos() > bound) {
                break;
            }
            window.removeFirst();
        }
    }

    public ConformOptions options() {
        return options;
    }

    /** The valid set-up frame every plan starts from (rping's Request or Reply). */
    public SetupFrame seedFrame() {
        io.jrnic.mpa.MpaSetupFrame.Kind kind = role == Role.INITIATOR ? io.jrnic.mpa.MpaSetupFrame.Kind.REQUEST
                : io.jrnic.mpa.MpaSetupFrame.Kind.REPLY;
        return SetupFrame.v2(kind, options.crc(), io.jrnic.mpa.MpaV2Words.of(1, 1), 0);
    }

    /** The valid execution (seed set-up frame, one ping) that follows a replay to let a late crash show. */
    public FuzzInput valid() {
        return new FuzzInput(role, seedFrame(), true, List.of());
    }

    /** Brings a fresh target (the before hook) and forgets the crash signal. */
    private void fresh() throws Exception {
        target.before(null);
        watch.reset();
    }

    /** One try of a search or a minimisation: a fresh target, then the reproducer; the crash evidence or null. */
    public String trial(Reproducer r, Path pcap) throws Exception {
        if (runner == null) {
            try (Runner r0 = runners.open(); CrashWatch w = new CrashWatch(target, POLL)) {
                runner = r0;
                watch = w;
                return trial(r, pcap);
            } finally {
                runner = null;
                watch = null;
            }
        }
        fresh();
        return send(r, pcap).dead();
    }

    /** Replays a reproducer once on the target as it is (no before hook) and tells whether it still lives. */
    public Replay replay(Reproducer r, Path pcap) throws Exception {
        try (Runner r0 = runners.open(); CrashWatch w = new CrashWatch(target, POLL)) {
            runner = r0;
            watch = w;
            return send(r, pcap);
        } finally {
            runner = null;
            watch = null;
        }
    }

    private Replay send(Reproducer r, Path pcap) throws Exception {
        List<Recording> recs = new ArrayList<>();
        String observed = "nothing";
        List<FuzzInput> all = new ArrayList<>(r.inputs());
        for (int i = 0; i < r.follow(); i++) {
            all.add(valid());
        }
        try {
            for (int i = 0; i < all.size(); i++) {
                Recording rec = new Recording("replay-" + (i + 1));
                recs.add(rec);
                Executor.Result res;
                try {
                    res = runner.replay(all.get(i), rec);
                } catch (CaseContext.UnreachableException e) {
                    if (i == 0) {
                        log.println("  the fresh target was unreachable: " + e.getMessage());
                        return new Replay("nothing (unreachable before the reproducer)", null);
                    }
                    return new Replay(observed, "no connection from the target: " + e.getMessage());
                }
                if (i < r.steps().size()) {
                    observed = res.observed().brief() + " (" + res.observed().detail() + ")";
                }
                String dead = watch.check();
                if (dead == null) {
                    dead = target.health();
                }
                if (dead != null) {
                    return new Replay(observed, dead);
                }
            }
            long until = System.nanoTime() + search.settleMillis() * 1_000_000L;
            while (System.nanoTime() < until) {
                Thread.sleep(100);
                String dead = watch.check();
                if (dead != null) {
                    return new Replay(observed, dead);
                }
            }
            return new Replay(observed, null);
        } finally {
            writePcap(recs, pcap);
        }
    }

    static void writePcap(List<Recording> recs, Path file) throws IOException {
        if (recs.isEmpty() || recs.get(0) == null) {
            return;
        }
        try (OutputStream o = Files.newOutputStream(file)) {
            PcapReport.writeRecordings(recs, o);
        }
    }
}
