package io.jrnic.cli;

import io.jrnic.conform.CaseContext;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Role;
import io.jrnic.conform.fuzz.FuzzInput;
import io.jrnic.conform.fuzz.Fuzzer;
import io.jrnic.conform.fuzz.Minimizer;
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
        description = {"Stateful, structure-aware fuzzing of an iWARP stack over TCP, in either role like 'jrnic conform':",
                "sets up MPA (or mutates the set-up frame), learns the target's STag/TO from one rping exchange, then sends",
                "mutated MPA/DDP/RDMAP frames with CRC and markers recomputed. A dead target (health hook, or unreachable",
                "within --connect-wait) is a finding: reproducer and pcap in --out; --minimize cuts it down (needs",
                "--hook-before to bring the target back). Bounded by --count and --seconds; deterministic with --seed.",
                "Exit: 0 no finding, 1 findings, 2 bad usage."})
public final class FuzzCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions t = new TargetOptions();
    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the mutations (default 1)") long seed;
    @Option(names = "--count", paramLabel = "N", defaultValue = "1000", description = "executions at most (default 1000)")
    long count;
    @Option(names = "--seconds", paramLabel = "S", defaultValue = "60", description = "wall-clock cap (default 60)") long seconds;
    @Option(names = "--findings", paramLabel = "N", defaultValue = "1", description = "stop after N findings (default 1)")
    int findings;
    @Option(names = "--crc", description = "the seed set-up frame asks for CRC") boolean crc;
    @Option(names = "--watch-ms", paramLabel = "MS", defaultValue = "300",
            description = "how long to watch the target after each execution (default 300)") long watchMs;
    @Option(names = "--timeout", paramLabel = "S", defaultValue = "2", description = "seconds to wait for each step of the "
            + "valid exchange (default 2)") double timeout;
    @Option(names = "--connect-wait", paramLabel = "S", defaultValue = "10",
            description = "seconds a target may stay unreachable before it counts as dead (default 10)") double connectWait;
    @Option(names = "--replay", paramLabel = "FILE", description = "send a reproducer once and report") Path replay;
    @Option(names = "--candidate", paramLabel = "K", description = "with --replay FILE: write the K-th reduction "
            + "of FILE (0-based) to OUT/candidate.repro and exit 0, or exit 3 when there is none (minimising across "
            + "target restarts the hooks cannot do, e.g. a guest reboot)") Integer candidate;
    @Option(names = "--minimize", description = "after a finding (or with --replay), cut the reproducer down") boolean minimize;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "fuzz-out", description = "findings directory (default fuzz-out)")
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
        ShellTarget hooks = t.hooks(null);
        Files.createDirectories(out);
        Fuzzer fuzzer = new Fuzzer(opts, role, hooks, out, Duration.ofMillis(watchMs), o);
        if (replay != null) {
            FuzzInput in = FuzzInput.read(replay);
            if (in.role() != role) {
                err.println("fuzz: the reproducer is for the " + in.role() + " role");
                return 2;
            }
            if (candidate != null) {
                java.util.List<FuzzInput> cands = Minimizer.candidates(in, fuzzer.seedFrame());
                if (candidate >= cands.size()) {
                    o.println("no reduction " + candidate + " (" + cands.size() + " in all)");
                    return 3;
                }
                cands.get(candidate).write(out.resolve("candidate.repro"));
                o.println("candidate " + candidate + ": " + Minimizer.difference(cands.get(candidate), fuzzer.seedFrame()));
                return 0;
            }
            if (minimize) {
                return minimizeAndReport(fuzzer, in, opts, role, hooks, o);
            }
            String[] r = fuzzer.replay(in);
            String dead = r[1] != null ? r[1] : probe(opts, role);
            o.println("replayed " + replay + ": the target did " + r[0] + "; " + (dead == null ? "it is alive" : "it died: " + dead));
            o.println("capture: " + out.resolve("replay.pcap"));
            return dead == null ? 0 : 1;
        }
        o.printf("jrnic fuzz: %s role, %s, seed %d, at most %d executions or %d s%n", role.name().toLowerCase(),
                role == Role.INITIATOR ? "target " + addr : "serving on port " + t.serve, seed, count, seconds);
        o.flush();
        Fuzzer.Stats s = fuzzer.run(seed, count, Duration.ofSeconds(seconds), findings);
        o.printf("%d executions in %.1f s (%.1f/s), %d findings, outcomes %s%n", s.executions(), s.millis() / 1000.0,
                s.perSecond(), s.findings().size(), s.outcomes());
        for (Fuzzer.Finding f : s.findings()) {
            o.printf("finding at execution %d after %.1f s: %s%n  %s%n  replay: jrnic fuzz --replay %s %s%n", f.execution(),
                    f.millis() / 1000.0, f.how(), Minimizer.difference(f.input(), fuzzer.seedFrame()), f.reproducer(),
                    role == Role.INITIATOR ? t.target : "--serve " + t.serve);
            if (minimize) {
                minimizeAndReport(fuzzer, f.input(), opts, role, hooks, o);
            }
        }
        o.flush();
        return s.findings().isEmpty() ? 0 : 1;
    }

    private int minimizeAndReport(Fuzzer fuzzer, FuzzInput in, ConformOptions opts, Role role, ShellTarget hooks,
                                  PrintWriter o) throws Exception {
        Minimizer m = new Minimizer(c -> {
            hooks.before(null);
            String[] r = fuzzer.replay(c);
            return (r[1] != null ? r[1] : probe(opts, role)) != null;
        }, o);
        FuzzInput min = m.minimize(in, fuzzer.seedFrame(), 16);
        Path file = out.resolve("minimal.repro");
        min.write(file);
        o.println("minimal reproducer after " + m.tries() + " tries: " + Minimizer.difference(min, fuzzer.seedFrame())
                + " (" + file + ")");
        o.flush();
        return 1;
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
