package io.jrnic.interop.siw;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Command-line entry of the siw harness (for {@code jrnic interop}): {@code run(args, out, err)}
 * returns the exit status; {@link #main} exits with it.
 * <pre>
 *   build [--force]                        build the guest image (no-op when cached), print its directory
 *   list [--peer HOST]                     list the matrix cases (with --peer: the siw-side command of each)
 *   run [--out DIR] [--lanes N] [CASE...]  boot and run cases (default: all) on N guests at once (default 1);
 *                                          0 all pass, 1 a failure, 2 unavailable
 *   run --peer HOST [CASE...]              jrnic's side only, against a real siw host where the user started the siw side
 *   exec [--params K=V,...] CMD            boot a guest, run CMD in it, print its output, exit with its status
 * </pre>
 */
public final class SiwInterop {
    /** Exit status when qemu, the image or root are missing. */
    public static final int UNAVAILABLE = 2;

    private SiwInterop() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            String cmd = args.isEmpty() ? "help" : args.get(0);
            List<String> rest = args.subList(Math.min(1, args.size()), args.size());
            return switch (cmd) {
                case "build" -> build(rest, out, err);
                case "list" -> list(rest, out);
                case "run" -> runCases(rest, out, err);
                case "exec" -> exec(rest, out, err);
                default -> usage(cmd.equals("help") ? out : err, cmd.equals("help") ? 0 : 64);
            };
        } catch (IOException | RuntimeException e) {
            err.println("siw interop: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static int usage(PrintStream s, int rc) {
        s.println("usage: SiwInterop build [--force] | list | run [--out DIR] [--lanes N] [CASE...] | exec [--params K=V,...] CMD");
        return rc;
    }

    private static int build(List<String> args, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        Optional<Path> script = SiwImage.buildScript();
        if (script.isEmpty()) {
            err.println("cannot find " + SiwImage.SCRIPT + " above " + Paths.get("").toAbsolutePath());
            return UNAVAILABLE;
        }
        Path log = Files.createTempFile("jrnic-siw-build", ".log");
        long t0 = System.nanoTime();
        SiwImage image = SiwImage.build(script.get(), log, 1800, args.contains("--force"));
        out.printf("image %s (%.0f s, log %s)%n", image.dir(), (System.nanoTime() - t0) / 1e9, log);
        return 0;
    }

    private static int list(List<String> args, PrintStream out) {
        if (JrnicLauncher.find().isEmpty()) {
            out.println("(jrnic cases need the jrnic CLI: -Djrnic.cli=..., JRNIC_CLI=... or cli/target/jrnic.jar)");
        }
        int at = args.indexOf("--peer");
        String peer = at >= 0 && at + 1 < args.size() ? args.get(at + 1) : null;
        for (SiwCase c : SiwMatrix.everyCase()) {
            if (peer == null) {
                out.printf("%-38s %-10s %s%n", c.name(), label(c.config()), c.proves());
            } else {
                c.siwSideCommand("<this-host>").ifPresent(cmd -> out.printf("%-38s on %s: %s%n", c.name(), peer, cmd));
            }
        }
        return 0;
    }

    private static String label(GuestConfig g) {
        return g.siwParams().isEmpty() ? g.variant().dir() : String.join(",", g.siwParams());
    }

    /** The results as a table: case, outcome, seconds; then the totals. */
    public static void table(List<CaseResult> results, PrintStream out) {
        out.printf("%n%-38s %-4s %7s%n", "case", "", "seconds");
        double total = 0;
        for (CaseResult r : results) {
            out.printf("%-38s %-4s %7.1f%n", r.name(), r.outcome(), r.elapsed().toMillis() / 1000.0);
            total += r.elapsed().toMillis() / 1000.0;
        }
        long passed = results.stream().filter(CaseResult::passed).count();
        out.printf("%-38s %-4s %7.1f%n", passed + "/" + results.size() + " passed", "", total);
    }

    private static int runCases(List<String> args, PrintStream out, PrintStream err) throws IOException {
        Path outDir = Paths.get("siw-interop-out");
        List<String> names = new ArrayList<>();
        String peer = null;
        int lanes = 1;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--out") && i + 1 < args.size()) {
                outDir = Paths.get(args.get(++i));
            } else if (args.get(i).equals("--lanes") && i + 1 < args.size()) {
                String n = args.get(++i);
                lanes = n.matches("[1-9][0-9]{0,2}") ? Integer.parseInt(n) : 0;
                if (lanes < 1) {
                    err.println("--lanes: a number of guests from 1 to 999, not " + n);
                    return 64;
                }
            } else if (args.get(i).equals("--peer") && i + 1 < args.size()) {
                peer = args.get(++i);
            } else {
                names.add(args.get(i));
            }
        }
        if (peer != null) {
            return runPeer(peer, names, outDir, out, err);
        }
        Optional<String> why = SiwImage.unavailableReason();
        if (why.isPresent()) {
            err.println("siw interop unavailable: " + why.get());
            return UNAVAILABLE;
        }
        List<SiwCase> cases = new ArrayList<>();
        for (SiwCase c : names.isEmpty() ? SiwMatrix.allCases() : SiwMatrix.everyCase()) {
            if (names.isEmpty() || names.contains(c.name())) {
                cases.add(c);
            }
        }
        if (cases.size() != Math.max(names.size(), cases.size()) || cases.isEmpty()) {
            err.println("unknown case in " + names + "; see `list`");
            return 64;
        }
        List<CaseResult> results = SiwMatrix.run(SiwImage.find().orElseThrow(), cases, lanes, outDir, out);
        table(results, out);
        long passed = results.stream().filter(CaseResult::passed).count();
        out.printf("%d passed, %d failed (artifacts in %s)%n", passed, results.size() - passed, outDir.toAbsolutePath());
        return passed == results.size() ? 0 : 1;
    }

    /** jrnic's side of the named cases (default: every case that has one) against {@code host}. */
    private static int runPeer(String host, List<String> names, Path outDir, PrintStream out, PrintStream err)
            throws IOException {
        Files.createDirectories(outDir);
        List<CaseResult> results = new ArrayList<>();
        for (SiwCase c : SiwMatrix.allCases()) {
            boolean named = names.contains(c.name());
            if ((names.isEmpty() || named) && c.siwSideCommand(host).isPresent()) {
                out.println(c.name() + ": start on " + host + ": " + c.siwSideCommand("<this-host>").orElseThrow());
                CaseResult r;
                try {
                    r = c.runPeer(host, outDir);
                } catch (Exception e) {
                    r = new CaseResult(c.name(), CaseResult.Outcome.FAIL, e.toString(), Duration.ZERO, List.of());
                }
                out.println(r);
                results.add(r);
            } else if (named) {
                err.println(c.name() + " needs the guest (no --peer form)");
                return 64;
            }
        }
        if (results.isEmpty()) {
            err.println("no case with a --peer form in " + names);
            return 64;
        }
        table(results, out);
        return results.stream().allMatch(CaseResult::passed) ? 0 : 1;
    }

    private static int exec(List<String> args, PrintStream out, PrintStream err) throws IOException {
        GuestConfig config = GuestConfig.defaults();
        List<String> rest = new ArrayList<>(args);
        if (rest.size() >= 2 && rest.get(0).equals("--params")) {
            config = GuestConfig.params(rest.get(1).split(","));
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty()) {
            return usage(err, 64);
        }
        Optional<String> why = SiwImage.unavailableReason();
        if (why.isPresent()) {
            err.println("siw interop unavailable: " + why.get());
            return UNAVAILABLE;
        }
        try (SiwGuest guest = SiwGuest.boot(SiwImage.find().orElseThrow(), config)) {
            err.printf("booted in %.1f s%n", guest.bootTime().toMillis() / 1000.0);
            ExecResult r = guest.exec(String.join(" ", rest), Duration.ofSeconds(300));
            out.print(r.output());
            return r.exitCode();
        }
    }
}
