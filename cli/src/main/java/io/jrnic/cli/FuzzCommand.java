package io.jrnic.cli;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Role;
import io.jrnic.conform.fuzz.CulpritSearch;
import io.jrnic.conform.fuzz.FuzzInput;
import io.jrnic.conform.fuzz.Fuzzer;
import io.jrnic.conform.fuzz.Minimizer;
import io.jrnic.conform.fuzz.Reproducer;
import io.jrnic.conform.wire.Recording;
import io.jrnic.conform.wire.Session;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jrnic fuzz}: a stateful network fuzzer for iWARP stacks (see interop/README.md). */
@Command(name = "fuzz", mixinStandardHelpOptions = true,
        description = {"Stateful, structure-aware fuzzing of an iWARP stack over TCP, in either role",
                "like 'jrnic conform': sets up MPA (or mutates the set-up frame), learns the",
                "target's STag/TO from one rping exchange, then sends mutated MPA/DDP/RDMAP",
                "frames with CRC and markers recomputed. Bounded by --count and --seconds;",
                "deterministic with --seed.",
                "A finding is a dead target: --hook-crashed (e.g. an oops on a kernel console;",
                "polled during each watch window and before each next execution),",
                "--hook-health, or no connection within --connect-wait. The execution during",
                "which the signal came and any after are not counted as outcomes. Culprit",
                "search: the executions of the last --window-seconds (at most --window) are",
                "replayed one by one, newest first, each on a fresh target (--hook-before) and",
                "followed by as many valid executions as followed it in the run; the first that",
                "crashes the target is the culprit (cut down with --minimize); when none does",
                "alone, the window is replayed as a sequence (its start moved forward while it",
                "still crashes). The report says 'reproduced by execution N (minimised to",
                "...)', 'reproduced by the sequence N..M' or 'not reproduced' (the window is",
                "kept). Without --hook-before nothing is replayed and the run stops at the",
                "first finding.",
                "Files: OUT/finding-K/{window.repro, reproducer.repro, minimal.repro or",
                "sequence.repro, *.pcap}; --replay FILE accepts any of them and writes its",
                "capture next to FILE unless --out is given.",
                "Exit: 0 no finding (replay: the target lives), 1 findings (replay: it",
                "crashed), 2 bad usage."})
public final class FuzzCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions t = new TargetOptions();
    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the mutations (default 1)") long seed;
    @Option(names = "--count", paramLabel = "N", defaultValue = "1000", description = "executions at most (default 1000)")
    long count;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "60", description = "wall-clock cap of the fuzzing "
            + "(the culprit search comes on top; default 60)") long seconds;
    @Option(names = "--findings", paramLabel = "N", defaultValue = "1", description = "stop after N findings (default 1)")
    int findings;
    @Option(names = "--crc", description = "the seed set-up frame asks for CRC") boolean crc;
    @Option(names = "--watch-ms", paramLabel = "MS", defaultValue = "300",
            description = "how long to watch the target after each execution (default 300)") long watchMs;
    @Option(names = "--timeout", paramLabel = "S", defaultValue = "2", description = "seconds to wait for each step of the "
            + "valid exchange (default 2)") double timeout;
    @Option(names = "--connect-wait", paramLabel = "S", defaultValue = "10",
            description = "seconds a target may stay unreachable before it counts as dead (default 10)") double connectWait;
    @Option(names = "--hook-crashed", paramLabel = "CMD", description = "shell command polled every 200 ms (so during "
            + "each watch window) and before each execution; exit 0: the target crashed, its output is the evidence "
            + "(e.g. grep -E 'BUG:|Oops|panic' CONSOLE.LOG); any other exit: no crash") String hookCrashed;
    @Option(names = "--window-seconds", paramLabel = "S", defaultValue = "30", description = "the culprit search replays "
            + "the executions of at least the last S seconds before the finding (default 30)") long windowSeconds;
    @Option(names = "--window", paramLabel = "N", defaultValue = "200", description = "but at most the last N executions "
            + "(default 200)") int window;
    @Option(names = "--isolate-tries", paramLabel = "N", defaultValue = "40", description = "replays the culprit search may "
            + "spend per finding (default 40)") int isolateTries;
    @Option(names = "--isolate-repeat", paramLabel = "R", defaultValue = "1", description = "replays of each execution "
            + "alone (and of the window as a sequence) before it counts as not crashing, for crashes that come back only "
            + "sometimes (default 1)") int isolateRepeat;
    @Option(names = "--follow-max", paramLabel = "N", defaultValue = "8", description = "valid executions at most after a "
            + "replayed execution (default 8)") int followMax;
    @Option(names = "--settle-ms", paramLabel = "MS", defaultValue = "2000", description = "after a replay that left the "
            + "target alive, how long to keep polling --hook-crashed (a kernel worker's oops comes late; default 2000)")
    long settleMs;
    @Option(names = "--replay", paramLabel = "FILE", description = "send a reproducer (one execution or a sequence) once "
            + "and report") Path replay;
    @Option(names = "--candidate", paramLabel = "K", description = "with --replay FILE: write the K-th reduction "
            + "of FILE (0-based) to OUT/candidate.repro and exit 0, or exit 3 when there is none (minimising across "
            + "target restarts the hooks cannot do, e.g. a guest reboot)") Integer candidate;
    @Option(names = "--minimize", description = "cut the culprit down (or, with --replay, the reproducer); needs "
            + "--hook-before") boolean minimize;
    @Option(names = "--minimize-tries", paramLabel = "N", defaultValue = "16", description = "minimisation tries (default 16)")
    int minimizeTries;
    @Option(names = "--out", paramLabel = "DIR", description = "where every file goes (default fuzz-out; with --replay, "
            + "the reproducer's directory)")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Role role = t.role();
        if (!t.given()) {
            err.println("fuzz: " + TargetOptions.USAGE);
            return 2;
        }
        InetSocketAddress addr = t.address();
        ConformOptions opts = new ConformOptions(addr, t.servePort(), crc, Duration.ofMillis((long) (timeout * 1000)),
                Duration.ofSeconds(10), Duration.ofMillis((long) (connectWait * 1000)), Duration.ofMillis(t.firstFpduDelayMs));
        ShellTarget hooks = new ShellTarget(t.hookBefore, null, t.hookHealth, hookCrashed, role.name());
        Path dir = out != null ? out : replay != null ? replay.toAbsolutePath().getParent() : Path.of("fuzz-out");
        Files.createDirectories(dir);
        Fuzzer fuzzer = new Fuzzer(opts, role, hooks, dir, Duration.ofMillis(watchMs), o)
                .searching(new CulpritSearch.Options(windowSeconds, window, isolateTries, followMax,
                        minimize ? minimizeTries : 0, hookCrashed == null ? 0 : settleMs, isolateRepeat), t.hookBefore != null);
        if (replay != null) {
            return replay(fuzzer, role, dir, o, err);
        }
        o.printf("jrnic fuzz: %s role, %s, seed %d, at most %d executions or %d s%n", role.name().toLowerCase(),
                role == Role.INITIATOR ? "target " + addr : "serving on port " + t.serve, seed, count, seconds);
        o.flush();
        Fuzzer.Stats s = fuzzer.run(seed, count, Duration.ofSeconds(seconds), findings);
        o.printf("%d executions in %.1f s (%.1f/s), %d findings, outcomes %s%n", s.executions(), s.millis() / 1000.0,
                s.perSecond(), s.findings().size(), s.outcomes());
        for (Fuzzer.Finding f : s.findings()) {
            CulpritSearch.Result r = f.result();
            o.printf("finding at execution %d after %.1f s: %s%n  %s after %d replays: %s%n  replay: jrnic fuzz --replay %s %s%n",
                    f.execution(), f.millis() / 1000.0, f.how(), r.summary(), r.trials(), r.file(), r.file(),
                    role == Role.INITIATOR ? t.target : "--serve " + t.serve);
        }
        o.flush();
        return s.findings().isEmpty() ? 0 : 1;
    }

    private int replay(Fuzzer fuzzer, Role role, Path dir, PrintWriter o, PrintWriter err) throws Exception {
        Reproducer in = Reproducer.read(replay);
        if (in.inputs().stream().anyMatch(i -> i.role() != role)) {
            err.println("fuzz: the reproducer is for the " + in.inputs().get(0).role() + " role");
            return 2;
        }
        String stem = replay.getFileName().toString().replaceFirst("\\.repro$", "");
        if (candidate != null || minimize) {
            if (in.isSequence()) {
                err.println("fuzz: " + replay + " is a sequence; --candidate and --minimize take one execution");
                return 2;
            }
            Reproducer.Step step = in.steps().get(0);
            if (candidate != null) {
                java.util.List<FuzzInput> cands = Minimizer.candidates(step.input(), fuzzer.seedFrame());
                if (candidate >= cands.size()) {
                    o.println("no reduction " + candidate + " (" + cands.size() + " in all)");
                    return 3;
                }
                Reproducer.single(step.execution(), cands.get(candidate), in.follow()).write(dir.resolve("candidate.repro"));
                o.println("candidate " + candidate + ": " + Minimizer.difference(cands.get(candidate), fuzzer.seedFrame()));
                return 0;
            }
            Minimizer m = new Minimizer(c -> fuzzer.trial(Reproducer.single(step.execution(), c, in.follow()),
                    dir.resolve(stem + ".minimise.pcap")) != null, o);
            FuzzInput min = m.minimize(step.input(), fuzzer.seedFrame(), minimizeTries);
            Path file = dir.resolve(stem + ".minimal.repro");
            Reproducer.single(step.execution(), min, in.follow()).write(file);
            o.println("minimal reproducer after " + m.tries() + " tries: " + Minimizer.difference(min, fuzzer.seedFrame())
                    + " (" + file + ")");
            return 1;
        }
        Path pcap = dir.resolve(stem + ".replay.pcap");
        Fuzzer.Replay r = fuzzer.replay(in, pcap);
        String dead = r.dead() != null || in.follow() > 0 ? r.dead() : probe(fuzzer.options(), role);
        o.println("replayed " + replay + " (" + in.label() + (in.follow() > 0 ? ", then " + in.follow() + " valid" : "")
                + "): the target did " + r.observed() + "; " + (dead == null ? "it is alive" : "it crashed: " + dead));
        o.println("capture: " + pcap);
        return dead == null ? 0 : 1;
    }

    /** Null when the target answers (connect in the initiator role, a client in the responder role), else why not. */
    static String probe(ConformOptions opts, Role role) {
        CaseContext ctx;
        try (java.net.ServerSocket l = role == Role.RESPONDER ? listen(opts.servePort()) : null) {
            ctx = new CaseContext(opts, new Recording("probe"), l);
            try (Session s = role == Role.INITIATOR ? ctx.connect() : ctx.accept()) {
                s.reset();
            }
            return null;
        } catch (java.io.IOException e) {
            return e.getMessage();
        }
    }

    private static java.net.ServerSocket listen(int port) throws java.io.IOException {
        java.net.ServerSocket s = new java.net.ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(port));
        return s;
    }
}
