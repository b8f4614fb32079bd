package io.jrnic.interop.siw;

import io.jrnic.interop.decode.Check;
import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.interop.decode.Violation;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * perftest in rdma_cm mode ({@code ib_send_bw|ib_write_bw|ib_read_bw -R}) against jrnic's equivalents
 * ({@code jrnic ib-send-bw|...}), both directions, on the stock guest. PASS: both exit 0 and print the result
 * line for the size and iteration count; two MPA connections (exchange, then test), rev 2 with H, no
 * markers, no CRC; exactly the expected number of exchange Sends (11 per side for SEND, 16 for WRITE/READ),
 * plus the data phase: SEND {@code n} Sends and at least one credit Write, WRITE {@code n} RDMA Write
 * messages, READ {@code n} Read Requests and Read Responses; tshark agrees. The only violation tolerated is
 * PAD_NOT_ZERO on perftest's 2-byte MTU message: siw sends the PAD octets from the user buffer (the bytes
 * after the message, left from the previous exchange), not zeros.
 */
public final class PerftestCase implements SiwCase {
    /** Which tool. */
    public enum Tool {
        SEND("ib_send_bw", "ib-send-bw", 11), WRITE("ib_write_bw", "ib-write-bw", 16), READ("ib_read_bw", "ib-read-bw", 16),
        /** Latency: 6 preamble exchanges, 4 dests, the data phase, SEND/READ one closing dest (WRITE none). */
        SEND_LAT("ib_send_lat", "ib-send-lat", 11), WRITE_LAT("ib_write_lat", "ib-write-lat", 10),
        READ_LAT("ib_read_lat", "ib-read-lat", 11);

        final String siw;
        final String jrnic;
        final int exchangesPerSide;

        Tool(String siw, String jrnic, int exchangesPerSide) {
            this.siw = siw;
            this.jrnic = jrnic;
            this.exchangesPerSide = exchangesPerSide;
        }

        boolean latency() {
            return siw.endsWith("_lat");
        }
    }

    private static final int PORT = 18515;
    /** A tagged FPDU's ULPDU_Length without payload: control (2) + STag (4) + TO (8), RFC 5041 section 4.1. */
    private static final int TAGGED_HEADER = 14;

    private final String name;
    private final Tool tool;
    private final boolean jrnicServer;
    private final int iters;
    private final int size;
    private final List<String> jrnic;

    public PerftestCase(String name, Tool tool, boolean jrnicServer, int iters, int size, List<String> jrnic) {
        this.name = name;
        this.tool = tool;
        this.jrnicServer = jrnicServer;
        this.iters = iters;
        this.size = size;
        this.jrnic = List.copyOf(jrnic);
    }

    /** The matrix entries: send/write/read bandwidth, both directions, 100 x 4096 B. */
    public static List<SiwCase> cases(List<String> jrnic) {
        return of(jrnic, false, 4096);
    }

    /** send/write/read latency, both directions, 100 x 64 B. */
    public static List<SiwCase> latencyCases(List<String> jrnic) {
        return of(jrnic, true, 64);
    }

    private static List<SiwCase> of(List<String> jrnic, boolean latency, int size) {
        List<SiwCase> all = new ArrayList<>();
        for (Tool t : Tool.values()) {
            if (t.latency() == latency) {
                String base = t.siw.replace('_', '-');
                all.add(new PerftestCase(base + "-siw-client-jrnic-server", t, true, 100, size, jrnic));
                all.add(new PerftestCase(base + "-jrnic-client-siw-server", t, false, 100, size, jrnic));
            }
        }
        return all;
    }

    /**
     * ib_write_lat's server writes first; an MPA responder may only send after the initiator's first FPDU, so
     * a jrnic server needs siw's zero-length Write RTR: siw offers peer-to-peer only with peer_to_peer=1.
     */
    private boolean needsP2pGuest() {
        return tool == Tool.WRITE_LAT && jrnicServer;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return tool.siw + " -R " + iters + " x " + size + " B: " + (jrnicServer ? "siw client -> jrnic server"
                : "jrnic client -> siw server") + ", both report, wire clean";
    }

    @Override
    public GuestConfig config() {
        return needsP2pGuest() ? GuestConfig.params("peer_to_peer=1") : GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private String flags() {
        return " -R -p " + PORT + " -n " + iters + " -s " + size;
    }

    private List<String> jrnicArgs(String peer) {
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of(tool.jrnic, "-R", "-p", String.valueOf(PORT), "-n", String.valueOf(iters), "-s",
                String.valueOf(size), "--max-seconds", "30"));
        if (peer != null) {
            cmd.addAll(List.of("--first-fpdu-delay-ms", "50", peer));   // siw responder race (interop/README.md)
        }
        return cmd;
    }

    private boolean reports(String output) {
        return Pattern.compile("(?m)^\\s*" + size + "\\s+" + iters + "\\s+\\d").matcher(output).find();
    }

    /**
     * perftest calibrates its cycle counter against gettimeofday before it prints a report; under
     * TCG on a loaded host the fit can fail ("Correlation coefficient r^2: ... &lt; 0.9", then "Can't
     * produce a report", exit 1). That is the guest tool's clock, not the exchange: one rerun.
     */
    @Override
    public boolean guestToolEnvironmentFailure(CaseResult failed) {
        return failed.detail().contains("Correlation coefficient r^2");
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        CaseSupport.Sides sides = !jrnicServer
                ? CaseSupport.siwServes(guest, "perftest-server", tool.siw + flags(), PORT,
                        jrnicArgs(guest.guestAddress()), Duration.ofSeconds(60))
                : CaseSupport.jrnicServes(guest, jrnicArgs(null), outDir.resolve(name + "-jrnic-server.log"), PORT,
                        tool.siw + flags() + " " + guest.hostAddress(), Duration.ofSeconds(60), t0);
        ExecResult jr = sides.jrnic();
        ExecResult siw = sides.siw();
        // ib_read_lat's server prints no result line
        boolean jrnicReports = !(tool == Tool.READ_LAT && jrnicServer);
        boolean siwReports = !(tool == Tool.READ_LAT && !jrnicServer);
        GuestBootCase.expect(failures, jr.ok() && (!jrnicReports || reports(jr.output())), "jrnic: " + jr);
        GuestBootCase.expect(failures, siw.exitCode() == 0 && (!siwReports || reports(siw.output())), "siw: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.summary().mpaStreams() == 2, "MPA streams: " + r.summary().mpaStreams());
        GuestBootCase.expect(failures, r.setups().size() == 4, "set-up frames: " + r.setups());
        for (SetupRecord s : r.setups()) {
            MpaSetupFrame f = s.frameInfo();
            GuestBootCase.expect(failures, f.revision() == MpaSetupFrame.REVISION_2 && f.enhanced() && !f.markers()
                    && !f.crc() && !f.reject(), "set-up frame " + s);
        }
        GuestBootCase.expect(failures, r.crcCounts().keySet().equals(Set.of(CrcStatus.OFF)), "CRC outcomes " + r.crcCounts());
        long sends = count(r, false, RdmapOpcode.SEND);
        long writes = count(r, true, RdmapOpcode.RDMA_WRITE);
        long expectedSends = 2L * tool.exchangesPerSide + (tool == Tool.SEND ? iters : tool == Tool.SEND_LAT ? 2L * iters : 0);
        GuestBootCase.expect(failures, sends == expectedSends, "Send messages: " + sends + ", wanted " + expectedSends);
        switch (tool) {
            case SEND -> GuestBootCase.expect(failures, writes >= 1, "no credit RDMA Write");
            case WRITE -> GuestBootCase.expect(failures, writes == iters, "RDMA Writes: " + writes + ", wanted " + iters);
            case SEND_LAT -> GuestBootCase.expect(failures, writes == 0, "RDMA Writes: " + writes);
            case WRITE_LAT -> {
                // a Reply selecting P2P (jrnic's offer on its test connection; siw's peer_to_peer=1 offers it on
                // both) is followed by exactly one zero-length Write RTR, before the 2 x n ping-pong Writes
                long p2pReplies = r.setups().stream().map(SetupRecord::frameInfo)
                        .filter(f -> f.kind() == MpaSetupFrame.Kind.REPLY && f.v2Words() != null && f.v2Words().p2p()).count();
                long rtrs = r.fpdus().stream().filter(f -> f.tagged() && f.is(RdmapOpcode.RDMA_WRITE)
                        && f.ulpduLength() == TAGGED_HEADER).count();
                GuestBootCase.expect(failures, p2pReplies >= 1 && rtrs == p2pReplies && writes == 2L * iters + rtrs,
                        "RDMA Writes " + writes + " (RTRs " + rtrs + ", P2P Replies " + p2pReplies + "), wanted " + 2 * iters
                                + " + one RTR per P2P Reply");
            }
            case READ, READ_LAT -> {
                long req = count(r, false, RdmapOpcode.RDMA_READ_REQUEST);
                long resp = count(r, true, RdmapOpcode.RDMA_READ_RESPONSE);
                GuestBootCase.expect(failures, req == iters && resp == iters && writes == 0,
                        "Read Requests " + req + ", Read Responses " + resp + ", Writes " + writes + ", wanted " + iters);
            }
            default -> throw new IllegalStateException();
        }
        List<Violation> pads = r.problems().stream().filter(v -> v.check() == Check.PAD_NOT_ZERO).toList();
        List<Violation> others = r.problems().stream().filter(v -> v.check() != Check.PAD_NOT_ZERO).toList();
        GuestBootCase.expect(failures, others.isEmpty() && pads.size() <= 2, "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        String detail = (failures.isEmpty() ? "" : String.join("; ", failures) + " | ") + r.summaryLine()
                + (pads.isEmpty() ? "" : " (siw PAD_NOT_ZERO on the 2-byte MTU message: " + pads.size() + ")")
                + sides.saveGuestState(outDir, name);
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                Duration.ofNanos(System.nanoTime() - t0), List.of(pcap));
    }

    private static long count(CaptureReport r, boolean tagged, RdmapOpcode opcode) {
        return r.fpdus().stream().filter(f -> f.is(opcode) && f.tagged() == tagged && f.last()).count();
    }
}
