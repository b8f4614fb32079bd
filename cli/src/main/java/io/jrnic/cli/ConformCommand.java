package io.jrnic.cli;

import io.jrnic.conform.Catalogue;
import io.jrnic.conform.CaseResult;
import io.jrnic.conform.ConformCase;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.ConformRunner;
import io.jrnic.conform.Role;
import io.jrnic.conform.Verdict;
import io.jrnic.conform.report.JsonReport;
import io.jrnic.conform.report.JunitReport;
import io.jrnic.conform.report.PcapReport;
import io.jrnic.conform.report.TextReport;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code jrnic conform}: the wire-conformance suite against any iWARP stack (see interop/README.md). */
@Command(name = "conform", mixinStandardHelpOptions = true,
        description = {"Wire conformance of an iWARP stack: jrnic plays a raw rping peer, injects one violation",
                "per case and judges the target's reaction against the RFCs (MPA, DDP, RDMAP).",
                "Initiator role (default): TARGET runs an rping-compatible server ('rping -s'; 'jrnic rping -s -P').",
                "Responder role (--serve PORT): the target's 'rping -c' connects to jrnic, one connection per case.",
                "Exit: 0 no FAIL/CRASHED/ERROR (or, with --expect, the verdicts match the file), 1 otherwise, 2 bad usage."})
public final class ConformCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions t = new TargetOptions();
    @Option(names = "--list", description = "list the cases (with --serve: the responder role's) and exit") boolean list;
    @Option(names = "--only", paramLabel = "GLOB", description = "run only cases whose id matches (* and ?; repeatable)")
    List<String> only = new ArrayList<>();
    @Option(names = "--skip", paramLabel = "GLOB", description = "leave out cases whose id matches (repeatable)")
    List<String> skip = new ArrayList<>();
    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1", description = "run the selected cases N times over")
    int repeat;
    @Option(names = "--crc", description = "ask for MPA CRC in every case that does not set it itself") boolean crc;
    @Option(names = "--timeout", paramLabel = "S", defaultValue = "5", description = "seconds to wait for each reaction (default 5)")
    double timeout;
    @Option(names = "--stall-timeout", paramLabel = "S", defaultValue = "40",
            description = "seconds to wait for the target to drop a stalled peer (default 40)") double stallTimeout;
    @Option(names = "--connect-wait", paramLabel = "S", defaultValue = "20",
            description = "responder role: seconds to wait for the target's client (default 20)") double connectWait;
    @Option(names = "--hook-after", paramLabel = "CMD", description = "shell command after each case") String hookAfter;
    @Option(names = "--out", paramLabel = "DIR", defaultValue = "conform-out",
            description = "report directory: conform.json, conform-junit.xml, conform.pcap (default conform-out)") Path out;
    @Option(names = "--expect", paramLabel = "FILE", description = "expected verdicts (lines 'id VERDICT', or 'id V1|V2' where either will do); exit 1 on any difference")
    Path expect;
    @Option(names = "--write-expect", paramLabel = "FILE", description = "write this run's verdicts as an expectations file")
    Path writeExpect;

    @Override
    public Integer call() throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Role role = t.role();
        List<ConformCase> selected = Catalogue.select(role, only, skip);
        List<ConformCase> cases = new ArrayList<>();
        for (int i = 0; i < Math.max(1, repeat); i++) {
            cases.addAll(selected);
        }
        if (list) {
            for (ConformCase c : cases) {
                o.printf("%-44s %-6s %s: %s%n", c.id(), c.strictness(), c.rfc(), c.rule());
            }
            o.println(cases.size() + " cases (" + role.name().toLowerCase() + " role)");
            o.flush();
            return 0;
        }
        if (cases.isEmpty()) {
            err.println("conform: no " + role.name().toLowerCase() + "-role case matches " + only
                    + (role == Role.RESPONDER ? " (the responder role's catalogue is still empty)" : ""));
            return 2;
        }
        if (!t.given()) {
            err.println("conform: " + TargetOptions.USAGE);
            return 2;
        }
        InetSocketAddress addr = t.address();
        ConformOptions opts = new ConformOptions(addr, t.servePort(), crc, seconds(timeout), seconds(stallTimeout),
                seconds(connectWait), Duration.ofMillis(t.firstFpduDelayMs));
        ShellTarget hooks = t.hooks(hookAfter);
        String who = role == Role.INITIATOR ? "target " + addr : "serving on port " + t.serve;
        o.println("jrnic conform: " + cases.size() + " cases, " + role.name().toLowerCase() + " role, " + who
                + (crc ? ", CRC asked" : "") + "; verdicts PASS, DEVIATES, FAIL, CRASHED, SKIPPED, ERROR");
        o.flush();
        List<CaseResult> results = new ConformRunner(opts, hooks).run(role, cases, r -> {
            o.println(TextReport.line(r));
            o.flush();
        });
        TextReport.summary(results, o);
        Files.createDirectories(out);
        try (Writer w = Files.newBufferedWriter(out.resolve("conform.json"), StandardCharsets.UTF_8)) {
            JsonReport.write(role == Role.INITIATOR ? String.valueOf(addr) : "port " + t.serve, role.name(), results, w);
        }
        try (Writer w = Files.newBufferedWriter(out.resolve("conform-junit.xml"), StandardCharsets.UTF_8)) {
            JunitReport.write("jrnic conform " + role.name().toLowerCase(), results, w);
        }
        try (OutputStream s = Files.newOutputStream(out.resolve("conform.pcap"))) {
            PcapReport.write(results, s);
        }
        o.println("reports: " + out.resolve("conform.json") + ", " + out.resolve("conform-junit.xml") + ", "
                + out.resolve("conform.pcap"));
        if (writeExpect != null) {
            StringBuilder b = new StringBuilder("# jrnic conform expected verdicts: case id, verdict\n");
            for (CaseResult r : results) {
                b.append(r.conformCase().id()).append(' ').append(r.verdict()).append('\n');
            }
            Files.writeString(writeExpect, b.toString());
        }
        if (expect != null) {
            return compare(results, expect, o) ? 0 : 1;
        }
        boolean bad = results.stream().anyMatch(r -> r.verdict() == Verdict.FAIL || r.verdict() == Verdict.CRASHED
                || r.verdict() == Verdict.ERROR);
        return bad ? 1 : 0;
    }

    /**
     * True when every case has the expected verdict (cases absent from the file must PASS); a line may allow
     * alternatives, {@code id PASS|FAIL}, for a target whose verdict differs between its builds.
     */
    static boolean compare(List<CaseResult> results, Path file, PrintWriter o) throws java.io.IOException {
        Map<String, String> want = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+");
            want.put(f[0], f[1]);
        }
        int diffs = 0;
        for (CaseResult r : results) {
            String w = want.getOrDefault(r.conformCase().id(), "PASS");
            if (!java.util.Arrays.asList(w.split("\\|")).contains(r.verdict().name())) { // 'PASS|FAIL': either
                o.println("DIFF " + r.conformCase().id() + ": expected " + w + ", got " + r.verdict() + " (" + r.reason() + ")");
                diffs++;
            }
        }
        o.println(diffs == 0 ? "verdicts match " + file : diffs + " verdicts differ from " + file);
        o.flush();
        return diffs == 0;
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis((long) (s * 1000));
    }
}
