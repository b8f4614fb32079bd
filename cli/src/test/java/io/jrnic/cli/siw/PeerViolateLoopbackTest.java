package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.Rping;
import io.jrnic.interop.siw.PeerResult;
import io.jrnic.verbs.ConnectOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The peer behind the siw Terminate cases ({@code jrnic interop peer-violate}) against jrnic's own rping
 * client on loopback, no guest: its machine-readable RESULT line carries the Terminate the client sent
 * (DDP tagged 1/0x00, invalid STag), the layout it was read in, and the QP state.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerViolateLoopbackTest {
    @Test
    void peerViolatePrintsAMachineReadableResultWithTheTerminateAndItsLayout() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PrintStream old = System.out;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        System.setOut(new PrintStream(b, true, StandardCharsets.UTF_8));
        int rc;
        try {
            CompletableFuture<Integer> peer = CompletableFuture.supplyAsync(() -> io.jrnic.cli.Jrnic.commandLine().execute("interop", "peer-violate", "-a", "127.0.0.1", "-p",
                    String.valueOf(port), "--stag", "--max-seconds", "20", "--terminates", "EITHER"));
            // wait until it listens (a bare TCP probe sends no MPA Request: the peer never sees it)
            for (boolean up = false; !up; ) {
                try (java.net.Socket probe = new java.net.Socket("127.0.0.1", port)) {
                    up = true;
                } catch (java.io.IOException refused) {
                    assertTrue(!peer.isDone(), "peer-violate ended before listening: " + b);
                    Thread.sleep(50);
                }
            }
            Exception last = null;
            try {
                Rping.client("soft", new InetSocketAddress("127.0.0.1", port), 1, 64, false, null,
                        ConnectOptions.defaults(), 20);
            } catch (Exception e) {
                last = e; // the client's QP was terminated by the peer's bad Write
            }
            rc = peer.get(30, TimeUnit.SECONDS);
            assertTrue(last != null, "the client's QP was terminated");
        } finally {
            System.setOut(old);
        }
        String out = b.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, out);
        PeerResult r = PeerResult.parse(out).orElseThrow(() -> new AssertionError("no RESULT line in\n" + out));
        assertEquals(new PeerResult.Terminated(1, 1, 0x00, "RFC"), r.terminate(), out);
        assertEquals("ERROR", r.qpState());
        assertTrue(r.allCompleted(), out);
        assertTrue(out.contains("terminate received layer=1 type=1 code=0x00 layout=RFC"), out);
    }
}
