package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.siw.ExecResult;
import io.jrnic.interop.siw.GuestConfig;
import io.jrnic.interop.siw.SiwCase;
import io.jrnic.interop.siw.SiwGuest;
import io.jrnic.interop.siw.SiwMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code jrnic interop}: --list without a guest; --peer against the guest (as a real siw host). */
class InteropCommandTest {
    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        System.setOut(new PrintStream(b, true, StandardCharsets.UTF_8));
        try {
            int rc = io.jrnic.cli.Jrnic.commandLine().execute(args);
            return rc + "\n" + b.toString(StandardCharsets.UTF_8);
        } finally {
            System.setOut(old);
        }
    }

    @Test
    void listNamesEveryCaseWithItsGuestConfiguration() {
        String out = run("interop", "--list");
        assertTrue(out.startsWith("0\n"), out);
        for (SiwCase c : SiwMatrix.allCases()) {
            assertTrue(out.contains(c.name()), c.name() + " missing in\n" + out);
        }
        assertTrue(out.contains("mpa_crc_required=1") && out.contains("peer_to_peer=1"), out);
    }

    @Test
    void listWithPeerGivesTheSiwSideCommandOfEachPeerCase() {
        String out = run("interop", "--list", "--peer", "siw-host");
        assertTrue(out.contains("jrnic-client-siw-server ") && out.contains("rping -s -a <siw-host-address> -p 7175 -C 10 -S 4000 -V"), out);
        assertTrue(out.contains("rdma_client -s <this-host> -p 7177"), out);
        assertTrue(!out.contains("rping-siw2siw-stock"), "siw-only cases have no --peer form\n" + out);
    }

    @Test
    void peerRunsJrnicSideAgainstARealSiwHost() throws Exception {
        SiwSession.assumeAvailable();
        SiwGuest guest = SiwSession.pool().guestFor(GuestConfig.defaults());
        guest.startBackground("peer-rping", "exec rping -s -a " + guest.guestAddress() + " -p 7175 -C 10 -S 4000 -V");
        guest.execOk("i=0; until ss -ltn | grep -q ':7175 '; do [ $i -ge 100 ] && exit 1; sleep 0.1; i=$((i+1)); done");
        List<String> cmd = new ArrayList<>(SiwSession.jrnic());
        cmd.addAll(List.of("interop", "--peer", guest.guestAddress(), "--out",
                SiwSession.out("InteropCommandTest").toString(), "jrnic-client-siw-server"));
        ExecResult r = guest.runHost(cmd, Duration.ofSeconds(120));
        ExecResult siw = guest.waitBackground("peer-rping", Duration.ofSeconds(30));
        if (siw.exitCode() == -1) {
            guest.stopBackground("peer-rping", "TERM");
        }
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("1/1 passed"), r.output());
        assertEquals(0, siw.exitCode(), siw.toString());
    }
}
