package io.jrnic.interop.siw;

import io.jrnic.interop.decode.Direction;
import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * siw detects a local error and sends a Terminate: siw's rping server ({@code -S 64}) reads the length the
 * client advertised into its own 64-byte buffer; jrnic ({@code interop peer-oversize-read}, an rping client)
 * advertises 128 bytes and answers the Read Request correctly with 128. siw cannot place the Read Response
 * into its sink (siw completes the Read with a local protection error, rping prints
 * {@code cq completion failed status 4}) and sends a Terminate, observed on kernel 6.1 as DDP / tagged buffer
 * (1) / 0x01 base or bounds violation, M and D set, in siw's layout. PASS: exactly one Terminate, from siw,
 * after exactly one Read Request and one Read Response; jrnic (with {@code --terminates SIW})
 * reports the Terminate's triple as decoded from the capture, its QP is in ERROR, its Send completed and its
 * outstanding receive was flushed (WR_FLUSH_ERROR), no hang; CRC off, no violation, tshark agrees.
 */
public final class SiwLocalErrorTerminateCase implements SiwCase {
    private static final int PORT = 7180;
    private static final int SIW_SIZE = 64;
    private static final int ADVERTISED = 128;
    private final String name;
    private final List<String> jrnic;

    public SiwLocalErrorTerminateCase(String name, List<String> jrnic) {
        this.name = name;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "siw's Read overruns its own sink (jrnic advertises " + ADVERTISED + " B to rping -S " + SIW_SIZE
                + "): siw sends a Terminate; jrnic decodes it, QP ERROR, receive flushed";
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private List<String> jrnicCommand(String siwHost) {
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of("interop", "peer-oversize-read", "-a", siwHost, "-p", String.valueOf(PORT), "--size",
                String.valueOf(ADVERTISED), "--max-seconds", "20"));
        cmd.addAll(JrnicLauncher.SIW_TERMINATES);
        return cmd;
    }

    private static String siwServer(String address) {
        return "rping -s -a " + address + " -p " + PORT + " -C 1 -S " + SIW_SIZE;
    }

    @Override
    public java.util.Optional<String> siwSideCommand(String jrnicHost) {
        return java.util.Optional.of(siwServer("<siw-host-address>") + "   (start first)");
    }

    @Override
    public CaseResult runPeer(String host, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        ExecResult jr = Host.run(jrnicCommand(host), Duration.ofSeconds(60));
        List<String> failures = new ArrayList<>();
        GuestBootCase.expect(failures, jr.ok() && jr.output().contains("qp state ERROR"), "jrnic: " + jr);
        return CaseSupport.result(name, failures, jr.output().strip().replace('\n', ' '), t0, List.of());
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        guest.startBackground("rping-server", "exec " + siwServer(guest.guestAddress()));
        CaseSupport.awaitGuestListening(guest, PORT);
        ExecResult jr = guest.runHost(jrnicCommand(guest.guestAddress()), Duration.ofSeconds(60));
        ExecResult siw = guest.waitBackground("rping-server", Duration.ofSeconds(20));
        if (siw.exitCode() == -1) {
            siw = guest.stopBackground("rping-server", "TERM");
        }
        // IBV_WC_LOC_PROT_ERR (4): siw's own Read failed placing the response
        GuestBootCase.expect(failures, siw.output().contains("cq completion failed status 4"), "siw rping: " + siw);
        PeerResult res = CaseSupport.peerResult(jr, failures);
        GuestBootCase.expect(failures, jr.ok() && res != null && res.qpState().equals("ERROR") && res.completed() == 2
                && res.allCompleted() && res.has("SEND", "SUCCESS") && res.has("RECV", "WR_FLUSH_ERROR"), "jrnic: " + jr);
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        GuestBootCase.expect(failures, r.summary().mpaStreams() == 1, "MPA streams: " + r.summary().mpaStreams());
        long requests = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.RDMA_READ_REQUEST)).count();
        long responses = r.fpdus().stream().filter(f -> f.last() && f.is(RdmapOpcode.RDMA_READ_RESPONSE)
                && f.dir() == Direction.I2R).count();
        GuestBootCase.expect(failures, requests == 1 && responses == 1, "Read Requests " + requests + ", Responses " + responses);
        List<FpduRecord> terms = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.TERMINATE)).toList();
        GuestBootCase.expect(failures, terms.size() == 1 && terms.get(0).dir() == Direction.R2I, "Terminates: " + terms);
        if (terms.size() == 1) {
            CaseSupport.expectReported(terms.get(0), jr, failures);
        }
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        return CaseSupport.result(name, failures, r.summaryLine() + " | siw sent "
                + (terms.isEmpty() ? "no Terminate" : terms.get(0).info()), t0, List.of(pcap));
    }
}
