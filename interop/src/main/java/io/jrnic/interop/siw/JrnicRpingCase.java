package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapOpcode;
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

    private final String name;
    private final Role role;
    private final boolean crc;
    private final int count;
    private final int size;
    private final List<String> jrnic;
    private final GuestConfig config;
    private final List<String> command;
    private final boolean expectCrc;
    private final boolean expectRtr;

    /** {@code jrnic}: the CLI launcher ({@link JrnicLauncher}); {@code crc}: jrnic requests CRC (--crc). */
    public JrnicRpingCase(String name, Role role, boolean crc, int count, int size, List<String> jrnic) {
        this(name, role, GuestConfig.defaults(), List.of("rping"), crc, crc, false, count, size, jrnic);
    }

    /**
     * The general form: siw booted with {@code config}; jrnic runs {@code command} (a CLI subcommand
     * taking rping's flags, e.g. {@code rping} or {@code interop peer-rping --p2p}); {@code crc}: jrnic
     * asks for CRC; {@code expectCrc}: every FPDU must carry a good CRC (else all OFF); {@code expectRtr}:
     * peer-to-peer, the initiator's first FPDU is a zero-length RDMA Write (the RTR).
     */
    public JrnicRpingCase(String name, Role role, GuestConfig config, List<String> command, boolean crc,
                          boolean expectCrc, boolean expectRtr, int count, int size, List<String> jrnic) {
        this.name = name;
        this.role = role;
        this.crc = crc;
        this.count = count;
        this.size = size;
        this.jrnic = List.copyOf(jrnic);
        this.config = config;
        this.command = List.copyOf(command);
        this.expectCrc = expectCrc;
        this.expectRtr = expectRtr;
    }

    public Role role() {
        return role;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return (role == Role.JRNIC_CLIENT ? "jrnic rping client -> siw rping server" : "siw rping client -> jrnic rping server")
                + " (" + count + " x " + size + " B" + (crc ? ", jrnic asks CRC" : "")
                + (config.siwParams().isEmpty() ? "" : ", siw " + String.join(",", config.siwParams()))
                + (expectCrc ? ", CRC on" : "") + (expectRtr ? ", RTR" : "") + "): data validated, wire clean";
    }

    @Override
    public GuestConfig config() {
        return config;
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private String siwParamsNote() {
        return config.siwParams().isEmpty() ? "" : "   (siw configured with " + String.join(", ", config.siwParams()) + ")";
    }

    @Override
    public java.util.Optional<String> siwSideCommand(String jrnicHost) {
        String common = " -p " + PORT + " -C " + count + " -S " + size + " -V";
        return java.util.Optional.of((role == Role.JRNIC_CLIENT ? "rping -s -a <siw-host-address>" + common + "   (start first)"
                : "rping -c -a " + jrnicHost + common + "   (start after jrnic)") + siwParamsNote());
    }

    @Override
    public CaseResult runPeer(String host, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(command);
        cmd.addAll(role == Role.JRNIC_CLIENT ? List.of("-c", "-a", host) : List.of("-s", "-a", "0.0.0.0"));
        cmd.addAll(List.of("-p", String.valueOf(PORT), "-C", String.valueOf(count), "-S", String.valueOf(size), "-V",
                "--max-seconds", "120"));
        if (crc) {
            cmd.add("--crc");
        }
        ExecResult jr = Host.run(cmd, Duration.ofSeconds(180));
        List<String> failures = new ArrayList<>();
        GuestBootCase.expect(failures, jr.ok(), "jrnic: " + jr);
        return CaseSupport.result(name, failures, "jrnic exit " + jr.exitCode(), t0, List.of());
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        String common = " -p " + PORT + " -C " + count + " -S " + size + " -V";
        boolean client = role == Role.JRNIC_CLIENT;
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(command);
        cmd.addAll(List.of(client ? "-c" : "-s", "-a", client ? guest.guestAddress() : guest.hostAddress()));
        cmd.addAll(List.of(common.trim().split(" ")));
        cmd.addAll(List.of("--max-seconds", "60"));
        if (crc) {
            cmd.add("--crc");
        }
        CaseSupport.Sides sides = client
                ? CaseSupport.siwServes(guest, "rping-server", "rping -s -a " + guest.guestAddress() + common, PORT,
                        cmd, Duration.ofSeconds(90))
                : CaseSupport.jrnicServes(guest, cmd, outDir.resolve(name + "-jrnic-server.log"), PORT,
                        "rping -c -a " + guest.hostAddress() + common, Duration.ofSeconds(90), t0);
        ExecResult jr = sides.jrnic();
        ExecResult siw = sides.siw();
        GuestBootCase.expect(failures, jr.ok(), "jrnic: " + jr);
        GuestBootCase.expect(failures, client ? CaseSupport.rpingServerFinished(siw) : siw.ok(), "siw rping: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.setups().size() == 2, "set-up frames: " + r.setups());
        // C in the Reply = CRC in use for both directions (RFC 5044 section 7.1)
        GuestBootCase.expect(failures, r.setups().stream().filter(s -> s.dir() == io.jrnic.interop.decode.Direction.R2I)
                .allMatch(s -> s.frameInfo().crc() == expectCrc), "Reply C flag, wanted " + expectCrc + ": " + r.setups());
        for (SetupRecord s : r.setups()) {
            MpaSetupFrame f = s.frameInfo();
            GuestBootCase.expect(failures, f.revision() == MpaSetupFrame.REVISION_2 && f.enhanced() && !f.markers()
                    && !f.reject(), "set-up frame " + s);
        }
        if (expectRtr) {
            io.jrnic.interop.decode.FpduRecord first = r.fpdus().stream()
                    .filter(f -> f.dir() == io.jrnic.interop.decode.Direction.I2R).findFirst().orElse(null);
            GuestBootCase.expect(failures, first != null && first.tagged() && first.is(RdmapOpcode.RDMA_WRITE)
                    && first.ulpduLength() == 14, "first initiator FPDU is not a zero-length Write RTR: " + first);
            GuestBootCase.expect(failures, r.setups().stream().allMatch(s -> s.frameInfo().v2Words() != null
                    && s.frameInfo().v2Words().p2p()), "P2P not set in both set-up frames: " + r.setups());
            // the Reply (R2I) selects exactly one RTR, WRITE (siw as responder picks it; jrnic prefers it)
            GuestBootCase.expect(failures, r.setups().stream().filter(s -> s.dir() == io.jrnic.interop.decode.Direction.R2I)
                    .allMatch(s -> s.frameInfo().v2Words().writeRtr() && s.frameInfo().v2Words().rtrCount() == 1),
                    "Reply does not select WRITE RTR: " + r.setups());
        }
        CrcStatus want = expectCrc ? CrcStatus.GOOD : CrcStatus.OFF;
        GuestBootCase.expect(failures, !r.fpdus().isEmpty() && r.crcCounts().keySet().equals(java.util.Set.of(want)),
                "CRC outcomes " + r.crcCounts() + ", wanted all " + want);
        long reads = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.RDMA_READ_REQUEST)).count();
        GuestBootCase.expect(failures, reads == count, "Read Requests: " + reads + ", wanted " + count);
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        String detail = (failures.isEmpty() ? r.summaryLine() : String.join("; ", failures) + " | " + r.summaryLine())
                + sides.saveGuestState(outDir, name);
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                Duration.ofNanos(System.nanoTime() - t0), List.of(pcap));
    }
}
