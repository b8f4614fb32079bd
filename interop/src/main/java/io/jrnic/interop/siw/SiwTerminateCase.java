package io.jrnic.interop.siw;

import io.jrnic.interop.decode.FpduRecord;
import io.jrnic.rdmap.RdmapOpcode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * siw's application dies while connected to jrnic: siw's rping client connects to jrnic's
 * {@code interop peer-violate --idle} server (which receives the first buffer descriptor and then
 * waits with a receive outstanding) and is killed with SIGKILL. Observed: siw (kernel 6.1) sends no
 * Terminate then, only a FIN. Checked: jrnic does not hang, the outstanding receive is flushed, the QP
 * leaves RTS (IDLE after the orderly LLP close; ERROR if a Terminate came, whose triple jrnic must then
 * report as the capture shows it).
 */
public final class SiwTerminateCase implements SiwCase {
    private static final int PORT = 7178;
    private final String name;
    private final List<String> jrnic;

    public SiwTerminateCase(String name, List<String> jrnic) {
        this.name = name;
        this.jrnic = List.copyOf(jrnic);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String proves() {
        return "siw rping client killed mid-exchange: siw sends FIN (no Terminate); jrnic flushes its receive, QP IDLE, no hang";
    }

    @Override
    public GuestConfig config() {
        return GuestConfig.defaults();
    }

    @Override
    public String captureInterface() {
        return "eth0";
    }

    private List<String> jrnicCommand(String bind) {
        List<String> cmd = new ArrayList<>(jrnic);
        cmd.addAll(List.of("interop", "peer-violate", "--idle", "--max-seconds", "30", "-a", bind, "-p",
                String.valueOf(PORT)));
        cmd.addAll(JrnicLauncher.SIW_TERMINATES);
        return cmd;
    }

    @Override
    public java.util.Optional<String> siwSideCommand(String jrnicHost) {
        return java.util.Optional.of("rping -c -a " + jrnicHost + " -p " + PORT + " -C 1 -S 64 & sleep 2; kill -KILL $!"
                + "   (start after jrnic)");
    }

    @Override
    public CaseResult runPeer(String host, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        ExecResult jr = Host.run(jrnicCommand("0.0.0.0"), Duration.ofSeconds(120));
        List<String> failures = new ArrayList<>();
        GuestBootCase.expect(failures, jr.ok() && jr.output().contains("qp state ERROR"), "jrnic: " + jr);
        return CaseSupport.result(name, failures, jr.output().strip().replace('\n', ' '), t0, List.of());
    }

    @Override
    public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
        long t0 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        List<String> cmd = jrnicCommand(guest.hostAddress());
        Path log = outDir.resolve(name + "-jrnic.log");
        Process server = guest.startHost(cmd, log);
        CaseSupport.awaitHostListening(guest, server, PORT);
        guest.startBackground("rping-client", "exec rping -c -a " + guest.hostAddress() + " -p " + PORT + " -C 1 -S 64");
        // killed once jrnic has the first descriptor (it prints "waiting for the peer")
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && server.isAlive()
                && !java.nio.file.Files.readString(log).contains("waiting for the peer")) {
            Thread.sleep(100);
        }
        // SIGKILL to rping only (killing the process group would also kill the wrapper that records the exit)
        guest.exec("kill -KILL $(pidof rping) 2>/dev/null; true", Duration.ofSeconds(10));
        ExecResult siw = guest.waitBackground("rping-client", Duration.ofSeconds(20));
        ExecResult jr = CaseSupport.finish(server, cmd, log, 40, t0);
        GuestBootCase.expect(failures, siw.exitCode() == 137, "siw rping not killed: " + siw);
        // with a Terminate the QP must be in ERROR; after siw's plain FIN (what a killed siw process sends)
        // the LLP close moves it to IDLE (RFC 5040 section 6); either way the receive is flushed
        PeerResult res = CaseSupport.peerResult(jr, failures);
        GuestBootCase.expect(failures, jr.ok() && res != null && res.completed() == 2 && res.allCompleted()
                && res.has("RECV", "WR_FLUSH_ERROR"), "jrnic: " + jr.output());
        Path pcap = capture.stop(outDir.resolve(name + ".pcap"));
        CaptureReport r = CaptureReport.of(pcap);
        GuestBootCase.expect(failures, capture.droppedByKernel() == 0, "capture incomplete: " + capture.tcpdumpLog());
        List<FpduRecord> terms = r.fpdus().stream().filter(f -> f.is(RdmapOpcode.TERMINATE)).toList();
        for (FpduRecord t : terms) {
            GuestBootCase.expect(failures, t.dir() == io.jrnic.interop.decode.Direction.I2R, "Terminate from jrnic: " + t);
        }
        GuestBootCase.expect(failures, terms.size() <= 1, "Terminates: " + terms);
        if (terms.size() == 1) {
            CaseSupport.expectReported(terms.get(0), jr, failures);
        } else {
            GuestBootCase.expect(failures, res != null && res.terminate() == null && res.qpState().equals("IDLE"),
                    "jrnic after siw's FIN: " + jr.output());
        }
        GuestBootCase.expect(failures, r.problems().isEmpty(), "violations: " + r.problems());
        GuestBootCase.expect(failures, r.tsharkDisagreement().isEmpty(), "tshark: " + r.tsharkDisagreement());
        return CaseSupport.result(name, failures, r.summaryLine() + " | siw sent "
                + (terms.isEmpty() ? "no Terminate" : terms.get(0).info()), t0, List.of(pcap));
    }
}
