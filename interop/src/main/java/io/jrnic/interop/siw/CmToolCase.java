package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.interop.decode.SetupRecord;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The librdmacm example tools against their jrnic equivalents: siw runs rdma-core's {@code rdma_server},
 * {@code rdma_client} or {@code ucmatose} in the guest, jrnic runs {@code jrnic rdma-server|rdma-client|ucmatose}
 * on the host (inside the namespace). PASS: both exit 0 printing the tool's success line, one MPA
 * connection with revision 2 set-up frames (H, no markers, no CRC), exactly the expected number of
 * untagged Send messages, no violation, tshark agrees. ucmatose's server sends first, so a jrnic server
 * (an RFC 5044 section 7.1 responder) needs siw's peer-to-peer RTR: that case boots the params build with
 * {@code peer_to_peer=1} and expects the zero-length RDMA Write RTR on the wire.
 */
public final class CmToolCase implements SiwCase {
    /** Which tool pair runs. */
    public enum Tool { RDMA_SERVER_CLIENT, UCMATOSE }

    /** Which side jrnic plays. */
    public enum Role { JRNIC_CLIENT, JRNIC_SERVER }

    private static final int PORT = 7471;

    private final String name;
    private final Tool tool;
    private final Role role;
    private final GuestConfig config;
    private final int count;
    private final int size;
    private final List<String> jrnic;

    public CmToolCase(String name, Tool tool, Role role, GuestConfig config, int count, int size, List<String> jrnic) {
        this.name = name;
        this.tool = tool;
        this.role = role;
        this.config = config;
        this.count = count;
        this.size = size;
        this.jrnic = List.copyOf(jrnic);
    }

    /** The matrix entries: both tools, both directions. */
    public static List<SiwCase> cases(List<String> jrnic) {
        GuestConfig stock = GuestConfig.defaults();
        GuestConfig p2p = GuestConfig.params("peer_to_peer=1");
        return List.of(
                new CmToolCase("rdma-client-siw-server-jrnic", Tool.RDMA_SERVER_CLIENT, Role.JRNIC_SERVER, stock, 1, 16, jrnic),
                new CmToolCase("rdma-client-jrnic-server-siw", Tool.RDMA_SERVER_CLIENT, Role.JRNIC_CLIENT, stock, 1, 16, jrnic),
                new CmToolCase("ucmatose-jrnic-client-siw-server", Tool.UCMATOSE, Role.JRNIC_CLIENT, stock, 10, 100, jrnic),
                new CmToolCase("ucmatose-siw-client-jrnic-server-p2p", Tool.UCMATOSE, Role.JRNIC_SERVER, p2p, 10, 100, jrnic));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        String t = tool == Tool.UCMATOSE ? "ucmatose (" + count + " x " + size + " B each way)" : "rdma_server/rdma_client";
        return t + (role == Role.JRNIC_CLIENT ? ": jrnic client -> siw server" : ": siw client -> jrnic server")
                + ", both exit 0, wire clean";
    }

    @Override
    public GuestConfig config() {
        return config;
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private boolean p2p() {
        return config.siwParams().contains("peer_to_peer=1");
    }

    private String siwServer() {
        return tool == Tool.UCMATOSE ? "ucmatose -p " + PORT + " -C " + count + " -S " + size : "rdma_server -p " + PORT;
    }

    private String siwClient(String server) {
        return tool == Tool.UCMATOSE ? "ucmatose -s " + server + " -p " + PORT + " -C " + count + " -S " + size
                : "rdma_client -s " + server + " -p " + PORT;
    }

    private List<String> jrnicArgs(boolean server, String peer) {
        List<String> cmd = new ArrayList<>(jrnic);
        if (tool == Tool.UCMATOSE) {
            cmd.add("ucmatose");
            cmd.addAll(server ? List.of("-b", peer) : List.of("-s", peer));
            cmd.addAll(List.of("-C", String.valueOf(count), "-S", String.valueOf(size)));
        } else {
            cmd.add(server ? "rdma-server" : "rdma-client");
            cmd.addAll(server ? List.of("-a", peer) : List.of("-s", peer));
        }
        cmd.addAll(List.of("-p", String.valueOf(PORT), "--max-seconds", "30"));
        if (!server) {
            cmd.addAll(List.of("--first-fpdu-delay-ms", "50"));   // siw responder race (interop/README.md)
        }
        return cmd;
    }

    private String success() {
        return tool == Tool.UCMATOSE ? "return status 0" : (role == Role.JRNIC_CLIENT ? "rdma_server: end 0" : "rdma_client: end 0");
    }

    private String jrnicSuccess() {
        return tool == Tool.UCMATOSE ? "return status 0" : (role == Role.JRNIC_CLIENT ? "rdma_client: end 0" : "rdma_server: end 0");
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        CaseSupport.Sides sides = role == Role.JRNIC_CLIENT
                ? CaseSupport.siwServes(guest, "tool-server", siwServer(), PORT,
                        jrnicArgs(false, guest.guestAddress()), Duration.ofSeconds(60))
                : CaseSupport.jrnicServes(guest, jrnicArgs(true, guest.hostAddress()),
                        outDir.resolve(name + "-jrnic-server.log"), PORT, siwClient(guest.hostAddress()),
                        Duration.ofSeconds(60), t0);
        ExecResult jr = sides.jrnic();
        ExecResult siw = sides.siw();
        GuestBootCase.expect(failures, jr.ok() && jr.output().contains(jrnicSuccess()), "jrnic: " + jr);
        GuestBootCase.expect(failures, siw.exitCode() == 0 && siw.output().contains(success()), "siw: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.summary().mpaStreams() == 1, "MPA streams: " + r.summary().mpaStreams());
        GuestBootCase.expect(failures, r.setups().size() == 2, "set-up frames: " + r.setups());
        for (SetupRecord s : r.setups()) {
            MpaSetupFrame f = s.frameInfo();
            GuestBootCase.expect(failures, f.revision() == MpaSetupFrame.REVISION_2 && f.enhanced() && !f.markers()
                    && !f.crc() && !f.reject(), "set-up frame " + s);
        }
        GuestBootCase.expect(failures, !r.fpdus().isEmpty() && r.crcCounts().keySet().equals(java.util.Set.of(CrcStatus.OFF)),
                "CRC outcomes " + r.crcCounts());
        long sends = r.fpdus().stream().filter(f -> f.hasControl() && !f.tagged() && f.last() && isSend(f)).count();
        GuestBootCase.expect(failures, sends == 2L * count, "Send messages: " + sends + ", wanted " + 2 * count);
        long rtrs = r.fpdus().stream().filter(f -> f.tagged() && f.is(RdmapOpcode.RDMA_WRITE)).count();
        // siw honours an initiator's P2P offer even when its own peer_to_peer is off: expect the RTR
        // exactly when the Reply says P2P (and always with the p2p guest)
        boolean replyP2p = r.setups().stream().map(SetupRecord::frameInfo)
                .filter(f -> f.kind() == MpaSetupFrame.Kind.REPLY && f.v2Words() != null).anyMatch(f -> f.v2Words().p2p());
        GuestBootCase.expect(failures, !p2p() || replyP2p, "Reply without P2P on the peer_to_peer guest");
        GuestBootCase.expect(failures, rtrs == (replyP2p ? 1 : 0), "zero-length Write RTRs: " + rtrs + ", Reply P2P " + replyP2p);
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        String detail = (failures.isEmpty() ? r.summaryLine() : String.join("; ", failures) + " | " + r.summaryLine())
                + sides.saveGuestState(outDir, name);
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                Duration.ofNanos(System.nanoTime() - t0), List.of(pcap));
    }

    private static boolean isSend(FpduRecord f) {
        RdmapOpcode op = f.rdmapOpcode();
        return op == RdmapOpcode.SEND || op == RdmapOpcode.SEND_WITH_INVALIDATE || op == RdmapOpcode.SEND_WITH_SE
                || op == RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE;
    }
}
