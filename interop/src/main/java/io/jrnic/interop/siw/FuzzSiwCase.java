package io.jrnic.interop.siw;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code jrnic fuzz} in the responder role against siw's {@code rping -c} (one client after another in
 * the guest), for a bounded time, from the valid rping Reply (no crashing frame in the seed): PASS when
 * it kills the guest kernel, with the executions, the time to the finding and the oops line in the
 * result. With {@code minimize}, the reproducer is then cut down on fresh guests (one boot per try:
 * only this harness can reboot siw) with {@code jrnic fuzz --candidate K} proposing each reduction.
 */
public final class FuzzSiwCase implements SiwCase {
    private static final int PORT = 7181;
    private static final Pattern FINDING = Pattern.compile("finding at execution (\\d+) after ([0-9.]+) s");
    private static final Pattern RATE = Pattern.compile("(\\d+) executions in ([0-9.]+) s \\(([0-9.]+)/s\\)");

    private final String name;
    private final long seconds;
    private final long seed;
    private final boolean minimize;
    private final List<String> jrnic;

    public FuzzSiwCase(String name, long seconds, long seed, boolean minimize, List<String> jrnic) {
        this.name = name;
        this.seconds = seconds;
        this.seed = seed;
        this.minimize = minimize;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "jrnic fuzz (responder role, seed " + seed + ", at most " + seconds + " s) rediscovers a siw Reply crash"
                + (minimize ? " and minimises it" : "");
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public boolean freshGuest() {
        return true;
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
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of("fuzz", "--serve", String.valueOf(PORT), "--seed", String.valueOf(seed), "--seconds",
                String.valueOf(seconds), "--count", "1000000", "--watch-ms", "200", "--timeout", "2", "--connect-wait", "15",
                "--out", dir.toString(), "--hook-health", health(guest)));
        ExecResult jr = serveWithClients(guest, cmd, dir.resolve("fuzz.log"), seconds + 120, t0);
        Files.writeString(dir.resolve("fuzz.txt"), jr.output());
        List<String> failures = new ArrayList<>();
        Matcher f = FINDING.matcher(jr.output());
        Matcher r = RATE.matcher(jr.output());
        String rate = r.find() ? r.group(1) + " executions in " + r.group(2) + " s (" + r.group(3) + "/s)" : "no summary";
        String oops = ConformSiwCase.oopsLines(guest);
        boolean found = f.find();
        GuestBootCase.expect(failures, found, "no finding within " + seconds + " s: " + rate);
        GuestBootCase.expect(failures, !found || !oops.isEmpty(), "a finding without an oops on the console");
        String detail = found ? "found at execution " + f.group(1) + " after " + f.group(2) + " s; " + rate + "; " + oops
                : rate;
        if (found && minimize) {
            detail += "; minimal: " + minimize(dir.resolve("crash-1.repro"), dir);
        }
        return CaseSupport.result(name, failures, detail, t0, List.of(dir.resolve("crash-1.repro"), dir.resolve("crash-1.pcap")));
    }

    /** The guest kernel answers a SYN to a closed port with a RST while it lives (bash's /dev/tcp on the host side). */
    static String health(SiwGuest guest) {
        return "timeout 3 bash -c 'exec 3<>/dev/tcp/" + guest.guestAddress() + "/9' 2>/dev/null; [ $? -ne 124 ]";
    }

    /** jrnic listens first, then the guest starts one rping client after another; returns jrnic's result. */
    static ExecResult serveWithClients(SiwGuest guest, List<String> cmd, Path log, long limitSeconds, long t0) throws Exception {
        Process p = guest.startHost(cmd, log);
        CaseSupport.awaitHostListening(guest, p, PORT);
        // four client loops: siw's rping -c often hangs after a connection the fuzzer broke (killed after 5 s),
        // so one loop alone leaves the fuzzer waiting; the others keep a client in jrnic's accept queue
        String loop = "while :; do timeout -s KILL 5 rping -c -a " + guest.hostAddress() + " -p " + PORT
                + " -C 1 >/dev/null 2>&1; sleep 0.2; done";
        guest.startBackground("fuzz-clients", "(" + loop + ") & (" + loop + ") & (" + loop + ") & " + loop);
        return CaseSupport.finish(p, cmd, log, limitSeconds, t0);
    }

    /** Greedy reduction on fresh guests; returns the minimal reproducer's description. */
    private String minimize(Path found, Path dir) throws Exception {
        SiwImage image = SiwImage.find().orElseThrow();
        Path cur = found;
        String description = "as found";
        int tries = 0;
        for (int k = 0; tries < 10; ) {
            List<String> cand = new ArrayList<>(jrnic);
            cand.addAll(List.of("fuzz", "--serve", String.valueOf(PORT), "--replay", cur.toString(), "--candidate",
                    String.valueOf(k), "--out", dir.toString()));
            ExecResult c = Host.run(cand, Duration.ofSeconds(60));
            if (c.exitCode() != 0) {
                break;   // no further reduction
            }
            Path next = dir.resolve("try-" + (++tries) + ".repro");
            Files.move(dir.resolve("candidate.repro"), next, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            boolean kills;
            try (SiwGuest g = SiwGuest.boot(image, GuestConfig.defaults())) {
                List<String> replay = new ArrayList<>(jrnic);
                replay.addAll(List.of("fuzz", "--serve", String.valueOf(PORT), "--replay", next.toString(), "--timeout", "2",
                        "--connect-wait", "15", "--out", dir.toString(), "--hook-health", health(g)));
                ExecResult rr = serveWithClients(g, replay, dir.resolve("try-" + tries + ".log"), 90, System.nanoTime());
                kills = rr.exitCode() == 1 || !g.alive();
            }
            if (kills) {
                cur = next;
                description = c.output().strip();
                k = 0;
            } else {
                k++;
            }
        }
        Files.copy(cur, dir.resolve("minimal.repro"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return description + " after " + tries + " tries (" + dir.resolve("minimal.repro") + ")";
    }
}
