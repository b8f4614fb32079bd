package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.mpa.MpaSetupFrame;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Case (c): jrnic's rping (host, inside the namespace) against siw's rping (guest) over the tap,
 * captured on the guest's eth0: both programs exit 0 with -V (data validated), one MPA connection
 * with revision 2 set-up frames (H, no markers, C as requested), every FPDU decodes with the
 * expected CRC outcome, one Read Request per ping, no violation, tshark agrees.
 * {@link Role#JRNIC_CLIENT}: jrnic initiates, siw responds (siw's responder race applies);
 * {@link Role#JRNIC_SERVER}: siw initiates, jrnic responds.
 */
public final class JrnicRpingCase implements SiwCase {
    /** Which side jrnic plays. */
    public enum Role { JRNIC_CLIENT, JRNIC_SERVER }

    private static final int PORT = 7175;
    private static final int READ_REQUEST = 0x1;

    private final String name;
    private final Role role;
    private final boolean crc;
    private final int count;
    private final int size;
    private final List<String> jrnic;

    /** {@code jrnic}: the CLI launcher ({@link JrnicLauncher}); {@code crc}: jrnic requests CRC (--crc). */
    public JrnicRpingCase(String name, Role role, boolean crc, int count, int size, List<String> jrnic) {
        this.name = name;
        this.role = role;
        this.crc = crc;
        this.count = count;
        this.size = size;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return (role == Role.JRNIC_CLIENT ? "jrnic rping client -> siw rping server" : "siw rping client -> jrnic rping server")
                + " (" + count + " x " + size + " B" + (crc ? ", CRC" : "") + "): data validated, wire clean";
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        String common = " -p " + PORT + " -C " + count + " -S " + size + " -V";
        ExecResult jr;
        ExecResult siw;
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.add("rping");
        if (role == Role.JRNIC_CLIENT) {
            guest.startBackground("rping-server", "exec rping -s -a " + guest.guestAddress() + common);
            guest.exec("i=0; until ss -ltn | grep -q ':" + PORT + " '; do [ $i -ge 100 ] && exit 1; sleep 0.1;"
                    + " i=$((i+1)); done", Duration.ofSeconds(20));
            cmd.addAll(List.of("-c", "-a", guest.guestAddress()));
            cmd.addAll(List.of(common.trim().split(" ")));
            cmd.addAll(List.of("--max-seconds", "60"));
            if (crc) {
                cmd.add("--crc");
            }
            jr = guest.runHost(cmd, Duration.ofSeconds(90));
            siw = guest.waitBackground("rping-server", Duration.ofSeconds(30));
            if (siw.exitCode() == -1) {
                siw = guest.stopBackground("rping-server", "TERM");
            }
        } else {
            cmd.addAll(List.of("-s", "-a", guest.hostAddress()));
            cmd.addAll(List.of(common.trim().split(" ")));
            cmd.addAll(List.of("--max-seconds", "60"));
            if (crc) {
                cmd.add("--crc");
            }
            Path log = outDir.resolve(name + "-jrnic-server.log");
            Process server = guest.startHost(cmd, log);
            // the jrnic server is up once it listens (probing with a connection would use up its one accept)
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            while (System.nanoTime() < deadline && server.isAlive()
                    && !guest.runHost(List.of("ss", "-ltn"), Duration.ofSeconds(10)).output().contains(":" + PORT + " ")) {
                Thread.sleep(200);
            }
            siw = guest.exec("rping -c -a " + guest.hostAddress() + common, Duration.ofSeconds(90));
            boolean ended = server.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            if (!ended) {
                server.destroyForcibly();
            }
            jr = new ExecResult(String.join(" ", cmd), ended ? server.exitValue() : ExecResult.KILLED,
                    java.nio.file.Files.readString(log), Duration.ofNanos(System.nanoTime() - t0));
        }
        GuestBootCase.expect(failures, jr.ok(), "jrnic: " + jr);
        GuestBootCase.expect(failures, siw.exitCode() == 0, "siw rping: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.setups().size() == 2, "set-up frames: " + r.setups());
        for (SetupRecord s : r.setups()) {
            MpaSetupFrame f = s.frameInfo();
            GuestBootCase.expect(failures, f.revision() == MpaSetupFrame.REVISION_2 && f.enhanced() && !f.markers()
                    && !f.reject(), "set-up frame " + s);
        }
        CrcStatus want = crc ? CrcStatus.GOOD : CrcStatus.OFF;
        GuestBootCase.expect(failures, !r.fpdus().isEmpty() && r.crcCounts().keySet().equals(java.util.Set.of(want)),
                "CRC outcomes " + r.crcCounts() + ", wanted all " + want);
        long reads = r.fpdus().stream().filter(f -> f.hasControl() && f.opcode() == READ_REQUEST).count();
        GuestBootCase.expect(failures, reads == count, "Read Requests: " + reads + ", wanted " + count);
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        String detail = failures.isEmpty() ? r.summaryLine() : String.join("; ", failures) + " | " + r.summaryLine();
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                Duration.ofNanos(System.nanoTime() - t0), List.of(pcap));
    }
}
