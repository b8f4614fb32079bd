package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness itself against a real guest: control channel, background jobs, file copy, host namespace. */
@SiwGuestTest(capture = "eth0")
class SiwGuestHarnessTest {

    @Test
    void guestBootsWithSiwDevice(SiwGuest guest, Path out) throws Exception {
        CaseResult r = new GuestBootCase("boot-stock", guest.config()).run(guest, null, out);
        assertTrue(r.passed(), r.toString());
    }

    @Test
    void aJrnicSideThatFailsHasTheGuestsStateTakenWhileTheSiwServerStillRuns(SiwGuest guest, Path out)
            throws Exception {
        int port = 7012;
        CaseSupport.Sides failed = CaseSupport.siwServes(guest, "state-rping",
                "timeout 5 rping -s -a " + guest.guestAddress() + " -p " + port, port, List.of("sh", "-c", "exit 3"),
                Duration.ofSeconds(10));
        assertEquals(3, failed.jrnic().exitCode());
        String state = failed.guestState();
        assertTrue(state != null && state.matches("(?s).*# ss -tanoi\n.*:" + port + " .*# rdma res show cm_id.*"), state);
        // the server that did not answer, and where in the kernel it waits
        assertTrue(state.matches("(?s).*\n[0-9]+ rping .*# dmesg.*"), state);
        String note = failed.saveGuestState(out, "state-case");
        assertEquals(" | guest state when jrnic failed: state-case-guest-state.txt", note);
        assertEquals(state, Files.readString(out.resolve("state-case-guest-state.txt")));

        CaseSupport.Sides passed = CaseSupport.siwServes(guest, "state-nc", "timeout 2 nc -l -p " + (port + 1), port + 1,
                List.of("true"), Duration.ofSeconds(10));
        assertTrue(passed.jrnic().ok());
        assertEquals(null, passed.guestState(), "taken only when the jrnic side failed");
        assertEquals("", passed.saveGuestState(out, "state-ok"));
    }

    @Test
    void execReturnsExitCodeAndOutput(SiwGuest guest) throws Exception {
        ExecResult r = guest.exec("echo 'hello  \"world\"'; echo err >&2; exit 3", Duration.ofSeconds(10));
        assertEquals(3, r.exitCode());
        assertEquals("hello  \"world\"\nerr\n", r.output());
    }

    @Test
    void commandPastItsTimeoutIsKilledAndChannelStaysUsable(SiwGuest guest) throws Exception {
        ExecResult r = guest.exec("sleep 30", Duration.ofSeconds(2));
        assertEquals(ExecResult.KILLED, r.exitCode());
        assertEquals("ok\n", guest.execOk("echo ok").output());
    }

    @Test
    void copyOutIsByteExact(SiwGuest guest, Path out) throws Exception {
        String sum = guest.execOk("head -c 300000 /dev/urandom > /tmp/blob && sha256sum /tmp/blob").output();
        Path local = guest.copyOut("/tmp/blob", out.resolve("blob.bin"));
        String mine = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(local)));
        assertEquals(sum.substring(0, 64), mine);
        Files.delete(local);
    }

    @Test
    void childJvmInTheNamespaceReachesTheGuest(SiwGuest guest, GuestCapture capture, Path out) throws Exception {
        guest.startBackground("nc", "exec nc -l -p 7001 > /tmp/received");
        guest.execOk("i=0; until ss -ltn | grep -q ':7001 '; do [ $i -ge 50 ] && exit 1; sleep 0.1; i=$((i+1)); done");
        ExecResult host = guest.runHost(SiwGuest.javaCommand(TcpSend.class.getName(),
                List.of(guest.guestAddress(), "7001", "jrnic-was-here")), Duration.ofSeconds(60));
        assertTrue(host.ok(), host.toString());
        assertEquals(0, guest.waitBackground("nc", Duration.ofSeconds(20)).exitCode());
        assertEquals("jrnic-was-here", guest.execOk("cat /tmp/received").output());
        Path pcap = capture.stop(out.resolve("childJvm.pcap"));
        assertTrue(Files.size(pcap) > 24, "capture on eth0 holds the TCP connection");
    }
}
