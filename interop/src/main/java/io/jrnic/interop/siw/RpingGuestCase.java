package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.Direction;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Case (b): rping siw to siw inside one guest over its eth0 address (the kernel routes it through
 * lo, where the capture listens), then the capture is checked with jrnic's decoder: exactly one
 * MPA connection with a revision 2 Request and Reply (H set, no markers, C as configured), every
 * FPDU decodes with the expected CRC outcome (GOOD with CRC negotiated, OFF without), one RDMA
 * Read Request per ping, no violation, and tshark (when installed) decodes the same FPDUs.
 * In peer-to-peer mode the initiator's first FPDU must be the zero-length RDMA Write RTR.
 */
public final class RpingGuestCase implements SiwCase {
    private static final int PORT = 7174;
    private static final int TAGGED_HEADER = 14;

    private final String name;
    private final GuestConfig config;
    private final int count;
    private final int size;

    /** rping with {@code count} iterations of {@code size} bytes (rping -C, -S). */
    public RpingGuestCase(String name, GuestConfig config, int count, int size) {
        this.name = name;
        this.config = config;
        this.count = count;
        this.size = size;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "siw talks to siw (rping " + count + " x " + size + " B" + (crc() ? ", CRC" : "") + (p2p() ? ", P2P" : "")
                + ") and jrnic's decoder reads every FPDU of that traffic without a violation";
    }

    @Override
    public GuestConfig config() {
        return config;
    }

    @Override
    public String captureInterface() {
        return "lo";
    }

    private boolean crc() {
        return config.siwParams().contains("mpa_crc_required=1");
    }

    private boolean p2p() {
        return config.siwParams().contains("peer_to_peer=1");
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        String a = guest.guestAddress();
        String args = " -a " + a + " -p " + PORT + " -C " + count + " -S " + size + " -V";
        guest.startBackground("rping-server", "exec rping -s" + args);
        // the server is up once siw's listening TCP socket exists
        CaseSupport.awaitGuestListening(guest, PORT);
        ExecResult client = guest.exec("rping -c" + args, Duration.ofSeconds(90));
        ExecResult server = CaseSupport.awaitBackground(guest, "rping-server");
        GuestBootCase.expect(failures, client.ok(), "rping client: " + client);
        GuestBootCase.expect(failures, CaseSupport.rpingServerFinished(server), "rping server: " + server);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport report = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        check(report, failures);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        String detail = failures.isEmpty() ? report.summaryLine() : String.join("; ", failures)
                + " | " + report.summaryLine();
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                elapsed, List.of(pcap));
    }

    private void check(CaptureReport r, List<String> failures) {
        GuestBootCase.expect(failures, r.summary().mpaStreams() == 1, "MPA streams: " + r.summary().mpaStreams());
        GuestBootCase.expect(failures, r.setups().size() == 2, "set-up frames: " + r.setups());
        for (SetupRecord s : r.setups()) {
            MpaSetupFrame f = s.frameInfo();
            GuestBootCase.expect(failures, f.revision() == MpaSetupFrame.REVISION_2 && f.enhanced() && !f.markers()
                    && f.crc() == crc() && !f.reject(), "set-up frame " + s);
        }
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        CrcStatus want = crc() ? CrcStatus.GOOD : CrcStatus.OFF;
        GuestBootCase.expect(failures, !r.fpdus().isEmpty() && r.crcCounts().keySet().equals(java.util.Set.of(want)),
                "CRC outcomes " + r.crcCounts() + ", wanted all " + want);
        long reads = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.RDMA_READ_REQUEST)).count();
        GuestBootCase.expect(failures, reads == count, "Read Requests: " + reads + ", wanted " + count);
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        if (p2p()) {
            FpduRecord first = r.fpdus().stream().filter(f -> f.dir() == Direction.I2R).findFirst().orElse(null);
            GuestBootCase.expect(failures, first != null && first.tagged() && first.is(RdmapOpcode.RDMA_WRITE)
                    && first.ulpduLength() == TAGGED_HEADER, "first initiator FPDU is not a zero-length Write RTR: "
                    + first);
        }
    }
}
