package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * jrnic breaks protection on purpose against siw: siw's rping client connects to jrnic's
 * {@code interop peer-violate} server, which RDMA WRITEs to the client's advertised buffer with a wrong
 * STag ({@link Kind#BAD_STAG}) or 32 bytes past its end ({@link Kind#OUT_OF_BOUNDS}). siw answers with a
 * Terminate (DDP tagged buffer error, RFC 5041 section 7.2: code 0x00 invalid STag / 0x01 base or
 * bounds violation; siw's bitfield layout, decoded by jrnic's engine with {@code --terminates SIW}),
 * then closes. Checked: jrnic reports exactly that triple, its QP is in ERROR and every posted work
 * request completed (no hang); the capture holds one Terminate from siw with that triple (decoded in
 * siw layout, tshark agreeing), every FPDU decodes with CRC OFF and no violation is reported. The
 * Terminate itself is the expected outcome, not a violation.
 */
public final class JrnicViolationCase implements SiwCase {
    /** What jrnic gets wrong. */
    public enum Kind {
        BAD_STAG("--stag", 0x00), OUT_OF_BOUNDS("--bounds", 0x01);

        final String flag;
        final int ddpCode;

        Kind(String flag, int ddpCode) {
            this.flag = flag;
            this.ddpCode = ddpCode;
        }
    }

    private static final int PORT = 7176;
    private final String name;
    private final Kind kind;
    private final List<String> jrnic;

    public JrnicViolationCase(String name, Kind kind, List<String> jrnic) {
        this.name = name;
        this.kind = kind;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "jrnic RDMA WRITEs with " + (kind == Kind.BAD_STAG ? "a bad STag" : "an out-of-bounds range")
                + " to siw rping's buffer: siw's Terminate DDP/1/0x0" + kind.ddpCode + " decoded, QP ERROR, all WRs complete";
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    List<String> jrnicCommand(String bind) {
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of("interop", "peer-violate", "-a", bind, "-p", String.valueOf(PORT), kind.flag));
        cmd.addAll(JrnicLauncher.SIW_TERMINATES);
        return cmd;
    }

    @Override
    public java.util.Optional<String> siwSideCommand(String jrnicHost) {
        return java.util.Optional.of("rping -c -a " + jrnicHost + " -p " + PORT + " -C 1 -S 64 -V   (start after jrnic)");
    }

    @Override
    public CaseResult runPeer(String host, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> cmd = jrnicCommand("0.0.0.0");
        ExecResult jr = Host.run(cmd, Duration.ofSeconds(120));
        List<String> failures = new ArrayList<>();
        checkJrnic(jr, failures);
        return CaseSupport.result(name, failures, jr.output().strip().replace('\n', ' '), t0, List.of());
    }

    private void checkJrnic(ExecResult jr, List<String> failures) {
        GuestBootCase.expect(failures, jr.ok(), "jrnic: " + jr);
        PeerResult.Terminated want = new PeerResult.Terminated(1, 1, kind.ddpCode, "SIW");
        PeerResult res = CaseSupport.peerResult(jr, failures);
        GuestBootCase.expect(failures, res != null && want.equals(res.terminate()),
                "jrnic did not report Terminate " + want + ": " + jr.output());
        GuestBootCase.expect(failures, res != null && res.qpState().equals("ERROR"), "jrnic QP not in ERROR: " + jr.output());
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        List<String> cmd = jrnicCommand(guest.hostAddress());
        Path log = outDir.resolve(name + "-jrnic.log");
        Process server = guest.startHost(cmd, log);
        CaseSupport.awaitHostListening(guest, server, PORT);
        ExecResult siw = guest.exec("rping -c -a " + guest.hostAddress() + " -p " + PORT + " -C 1 -S 64 -V",
                Duration.ofSeconds(60));
        ExecResult jr = CaseSupport.finish(server, cmd, log, 60, t0);
        checkJrnic(jr, failures);
        // siw's rping client ends on its own (it exits 0 even so: its QP was terminated, it does not check)
        GuestBootCase.expect(failures, siw.exitCode() != ExecResult.KILLED, "siw rping hung: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        List<FpduRecord> terms = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.TERMINATE))
                .toList();
        String want = String.format("Terminate DDP etype 1 code 0x%02x", kind.ddpCode);
        GuestBootCase.expect(failures, terms.size() == 1 && terms.get(0).info().contains(want)
                && terms.get(0).info().contains("siw layout"), "siw's Terminate, wanted one '" + want + "': " + terms);
        GuestBootCase.expect(failures, !r.fpdus().isEmpty() && r.crcCounts().keySet().equals(java.util.Set.of(CrcStatus.OFF)),
                "CRC outcomes " + r.crcCounts());
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        return CaseSupport.result(name, failures, r.summaryLine() + " | " + (terms.isEmpty() ? "" : terms.get(0).info()),
                t0, List.of(pcap));
    }
}
