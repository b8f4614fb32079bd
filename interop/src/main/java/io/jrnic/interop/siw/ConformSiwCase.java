package io.jrnic.interop.siw;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jrnic conform} against Linux siw in the guest, in one role, its verdicts compared with an
 * expectations file checked into interop ({@code src/main/resources/io/jrnic/interop/siw/conform/NAME.txt}):
 * a siw change or a jrnic regression shows as a diff. Initiator role: the guest runs {@code rping -s -P};
 * responder role: the guest runs {@code rping -c -C 1} in a loop, one client per case. The health hook
 * asks the guest kernel for a RST on a closed port (a dead kernel answers nothing), so a case that kills
 * the guest is CRASHED; the oops lines of the console go into the result.
 */
public final class ConformSiwCase implements SiwCase {
    /** The role jrnic plays. */
    public enum Role { INITIATOR, RESPONDER }

    private static final int PORT = 7180;
    private static final Pattern OOPS = Pattern.compile("(?m)^.*(BUG: .*|Oops: .*|RIP: .*|Kernel panic.*)$");

    private final String name;
    private final Role role;
    private final GuestConfig config;
    private final boolean crc;
    private final List<String> select;
    private final List<String> jrnic;

    /** {@code select}: extra {@code jrnic conform} arguments choosing cases ({@code --only}/{@code --skip}). */
    public ConformSiwCase(String name, Role role, GuestConfig config, boolean crc, List<String> select, List<String> jrnic) {
        this.name = name;
        this.role = role;
        this.config = config;
        this.crc = crc;
        this.select = List.copyOf(select);
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "jrnic conform " + role.name().toLowerCase() + " role against siw" + (crc ? " (CRC asked)" : "")
                + (select.isEmpty() ? "" : " " + String.join(" ", select)) + ": verdicts as expected";
    }

    /** siw's state may be damaged on purpose: a guest of its own. */
    @Override
    public boolean freshGuest() {
        return true;
    }

    @Override
    public GuestConfig config() {
        return config;
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        Path dir = outDir.resolve(name);
        Files.createDirectories(dir);
        Path expected = dir.resolve("expected.txt");
        boolean haveExpectations = copyExpectations(expected);
        String tag = "conform-" + role.name().toLowerCase();
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.add("conform");
        if (role == Role.INITIATOR) {
            guest.exec("rm -f /tmp/bg/rping-restarts", Duration.ofSeconds(10));
            // after some malformed connections siw stops listening while rping -s -P keeps running: a watchdog
            // restarts rping whenever the port stops listening (conform retries refused connects meanwhile)
            String listening = "ss -ltn | grep -q ':" + PORT + " '";
            guest.startBackground(tag, "while :; do rping -s -P -a " + guest.guestAddress() + " -p " + PORT
                    + " >/dev/null 2>&1 & pid=$!; i=0; until " + listening + " || [ $i -ge 50 ]; do sleep 0.1; i=$((i+1));"
                    + " done; while kill -0 $pid 2>/dev/null && " + listening + "; do sleep 0.2; done;"
                    + " kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; echo restarted >> /tmp/bg/rping-restarts; done");
            CaseSupport.awaitGuestListening(guest, PORT);
            cmd.addAll(List.of(guest.guestAddress() + ":" + PORT, "--first-fpdu-delay-ms", "300"));
        } else {
            cmd.addAll(List.of("--serve", String.valueOf(PORT)));
        }
        cmd.addAll(List.of("--timeout", "4", "--stall-timeout", "15", "--connect-wait", role == Role.INITIATOR ? "10" : "15", "--out", dir.toString(), "--hook-health",
                "timeout 3 bash -c 'exec 3<>/dev/tcp/" + guest.guestAddress() + "/9' 2>/dev/null; [ $? -ne 124 ]"));
        if (crc) {
            cmd.add("--crc");
        }
        cmd.addAll(select);
        cmd.addAll(haveExpectations ? List.of("--expect", expected.toString())
                : List.of("--write-expect", expected.toString()));
        ExecResult jr;
        if (role == Role.INITIATOR) {
            jr = guest.runHost(cmd, Duration.ofMinutes(20));
        } else {
            // jrnic listens first; then the guest starts one rping client after another (each killed once its
            // connection is over, or after 8 s: siw's rping -c can hang after a connection the server broke on purpose)
            Path log = dir.resolve("jrnic.log");
            Process p = guest.startHost(cmd, log);
            CaseSupport.awaitHostListening(guest, p, PORT);
            guest.exec("rm -f /tmp/bg/rping-restarts", Duration.ofSeconds(10));
            guest.startBackground(tag, RpingClientLoop.script(guest.hostAddress(), PORT, 8));
            jr = CaseSupport.finish(p, cmd, log, 20 * 60, t0);
        }
        Files.writeString(dir.resolve("conform.txt"), jr.output());
        List<String> failures = new ArrayList<>();
        if (!haveExpectations) {
            failures.add("no expectations file for " + name + " (this run's verdicts: " + expected + ")");
        }
        GuestBootCase.expect(failures, jr.exitCode() == 0, "verdicts differ: " + diffs(jr.output()));
        String oops = oopsLines(guest);
        String restarts = "";
        if (guest.alive()) {
            guest.stopBackground(tag, "KILL");
            restarts = guest.exec("cat /tmp/bg/rping-restarts 2>/dev/null | wc -l", Duration.ofSeconds(10)).output().strip();
        }
        String summary = summaryLine(jr.output()) + (restarts.isEmpty() || restarts.equals("0") ? ""
                : " | siw's rping restarted " + restarts + " times") + (oops.isEmpty() ? "" : " | guest console: " + oops);
        return CaseSupport.result(name, failures, summary, t0, List.of(dir.resolve("conform.json"),
                dir.resolve("conform.pcap")));
    }

    private boolean copyExpectations(Path to) throws IOException {
        try (InputStream in = ConformSiwCase.class.getResourceAsStream("conform/" + name + ".txt")) {
            if (in == null) {
                return false;
            }
            Files.write(to, in.readAllBytes());
            return true;
        }
    }

    static String oopsLines(SiwGuest guest) {
        return oopsLines(guest.consoleText());
    }

    /** The first oops lines (BUG, Oops, RIP, panic) of a console log, joined by " / ". */
    static String oopsLines(String console) {
        Matcher m = OOPS.matcher(console);
        List<String> lines = new ArrayList<>();
        while (m.find() && lines.size() < 4) {
            lines.add(m.group(1).strip());
        }
        return String.join(" / ", lines);
    }

    private static String summaryLine(String output) {
        for (String l : output.split("\n")) {
            if (l.matches("\\d+ cases: .*")) {
                return l.strip();
            }
        }
        return "no summary line";
    }

    private static String diffs(String output) {
        List<String> d = new ArrayList<>();
        for (String l : output.split("\n")) {
            if (l.startsWith("DIFF ") && d.size() < 10) {
                d.add(l.substring(5).strip());
            }
        }
        return d.isEmpty() ? output.lines().reduce((a, b) -> b).orElse("") : String.join("; ", d);
    }
}
