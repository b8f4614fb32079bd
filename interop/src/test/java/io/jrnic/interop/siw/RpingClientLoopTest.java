package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guest's client loop run here by {@code sh} with stand-ins for {@code rping} (logs its start, may count an
 * active open in a fake {@code /proc/net/snmp}, then hangs) and {@code ss} (lists a socket or none). The cap is
 * 8 s; each case watches the loop for a few seconds.
 */
class RpingClientLoopTest {
    private static final int CAP = 8;

    @TempDir
    Path dir;

    @Test
    void aHungClientWhoseConnectionIsOverIsKilledBeforeTheCap() throws Exception {
        assertTrue(startsWithin(true, false, 6) >= 2, "a second client started before the first one's cap");
    }

    @Test
    void aClientWhoseSocketIsStillThereIsLeftAlone() throws Exception {
        assertEquals(1, startsWithin(true, true, 3), "one client: its socket is still listed");
    }

    @Test
    void aClientThatNeverConnectedIsLeftAloneUntilTheCap() throws Exception {
        assertEquals(1, startsWithin(false, false, 3), "one client: no active open since it started");
    }

    /** Runs the loop until two clients have started or {@code seconds} passed; the number of clients started. */
    private int startsWithin(boolean connects, boolean socketListed, int seconds) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path snmp = dir.resolve("snmp");
        Path starts = dir.resolve("starts");
        Files.writeString(snmp, snmp(5));
        Files.writeString(starts, "");
        stub(bin.resolve("rping"), "echo start >> " + starts + "\n"
                + (connects ? "printf '" + snmp(6).replace("\n", "\\n") + "' > " + snmp + "\n" : "")
                + "exec sleep 60\n");
        stub(bin.resolve("ss"), socketListed ? "echo 'ESTAB 0 0 192.168.77.2:40000 192.168.77.1:7180'\n" : "true\n");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", RpingClientLoop.script("192.168.77.1", 7180, CAP,
                snmp.toString()));
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("loop.log").toFile());
        Process loop = pb.start();
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end && count(starts) < 2) {
                Thread.sleep(50);
            }
            return count(starts);
        } finally {
            loop.descendants().forEach(ProcessHandle::destroyForcibly);
            loop.destroyForcibly();
            loop.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String snmp(int activeOpens) {
        return "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens\nTcp: 1 200 120000 -1 " + activeOpens
                + " 0\n";
    }

    private static int count(Path starts) throws IOException {
        return (int) Files.readAllLines(starts).stream().filter("start"::equals).count();
    }

    private static void stub(Path p, String body) throws IOException {
        Files.writeString(p, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
