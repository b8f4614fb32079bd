package io.jrnic.interop.siw;

import io.jrnic.interop.decode.CrcStatus;
import io.jrnic.interop.decode.Direction;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Stream hand-over against siw: siw's {@code rdma_client} (rdmacm-utils: rdma_cm connect, one 16-byte
 * SEND, waits for one 16-byte receive, disconnects) connects to jrnic's {@code interop handover-echo}
 * (io.jrnic.examples.HandOverEcho), which accepts a plain TCP socket, reads the MPA Request in
 * streaming mode, hands the socket over as MPA responder and echoes the SEND. siw can only be the
 * active side of a hand-over (it speaks MPA only on sockets it created). Checked: both exit 0; one MPA
 * stream, a revision 2 Request (H) and Reply; one SEND each way; CRC OFF; no violation; tshark agrees.
 */
public final class HandOverCase implements SiwCase {
    private static final int PORT = 7177;
    private static final int SEND_SIZE = 16;
    private final String name;
    private final List<String> jrnic;

    public HandOverCase(String name, List<String> jrnic) {
        this.name = name;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "siw rdma_client -> jrnic plain TCP accept, MPA Request read in streaming mode, hand-over, SEND echoed";
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private List<String> jrnicCommand() {
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of("interop", "handover-echo", String.valueOf(PORT), "1", String.valueOf(SEND_SIZE)));
        return cmd;
    }

    @Override
    public java.util.Optional<String> siwSideCommand(String jrnicHost) {
        return java.util.Optional.of("rdma_client -s " + jrnicHost + " -p " + PORT + "   (start after jrnic)");
    }

    @Override
    public CaseResult runPeer(String host, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        ExecResult jr = Host.run(jrnicCommand(), Duration.ofSeconds(120));
        List<String> failures = new ArrayList<>();
        GuestBootCase.expect(failures, jr.ok(), "jrnic: " + jr);
        return CaseSupport.result(name, failures, jr.output().strip().replace('\n', ' '), t0, List.of());
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        List<String> cmd = jrnicCommand();
        Path log = outDir.resolve(name + "-jrnic.log");
        Process server = guest.startHost(cmd, log);
        CaseSupport.awaitHostListening(guest, server, PORT);
        ExecResult siw = guest.exec("rdma_client -s " + guest.hostAddress() + " -p " + PORT, Duration.ofSeconds(60));
        ExecResult jr = CaseSupport.finish(server, cmd, log, 30, t0);
        GuestBootCase.expect(failures, jr.ok() && jr.output().contains("1 messages echoed"), "jrnic: " + jr);
        GuestBootCase.expect(failures, siw.ok(), "siw rdma_client: " + siw);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.summary().mpaStreams() == 1, "MPA streams: " + r.summary().mpaStreams());
        GuestBootCase.expect(failures, r.setups().size() == 2 && r.setups().stream().allMatch(s ->
                s.frameInfo().revision() == MpaSetupFrame.REVISION_2 && s.frameInfo().enhanced() && !s.frameInfo().reject()),
                "set-up frames: " + r.setups());
        long sendsI2r = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.SEND) && f.dir() == Direction.I2R).count();
        long sendsR2i = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.SEND) && f.dir() == Direction.R2I).count();
        GuestBootCase.expect(failures, sendsI2r == 1 && sendsR2i == 1, "SENDs i2r/r2i: " + sendsI2r + "/" + sendsR2i);
        GuestBootCase.expect(failures, r.crcCounts().keySet().equals(java.util.Set.of(CrcStatus.OFF)),
                "CRC outcomes " + r.crcCounts());
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        return CaseSupport.result(name, failures, r.summaryLine(), t0, List.of(pcap));
    }
}
