package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.RpingPersistentServer;
import io.jrnic.conform.Role;
import io.jrnic.conform.fuzz.FuzzInput;
import io.jrnic.conform.fuzz.Reproducer;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jrnic fuzz --replay} against jrnic's own rping server on loopback: a sequence reproducer replays,
 * its capture goes next to the reproducer (never into the working directory), and {@code --hook-crashed}
 * (exit 0: crashed) makes the replay report a crash.
 */
class FuzzReplayTest {
    @TempDir
    Path dir;

    @Test
    void aSequenceReplaysWithItsCaptureNextToItAndTheCrashHookIsHeard() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (RpingPersistentServer s = new RpingPersistentServer("soft", new InetSocketAddress(lo, 0), 64, ConnectOptions.defaults())) {
            Thread serving = new Thread(() -> {
                try {
                    s.serve(30, 0, null, new PrintWriter(new StringWriter()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            serving.setDaemon(true);
            serving.start();
            String target = "127.0.0.1:" + s.localAddress().getPort();
            FuzzInput valid = new FuzzInput(Role.INITIATOR, SetupFrame.v2(MpaSetupFrame.Kind.REQUEST, false,
                    MpaV2Words.of(1, 1), 0), true, List.of());
            Path file = dir.resolve("seq.repro");
            new Reproducer(List.of(new Reproducer.Step(3, valid), new Reproducer.Step(4, valid)), 1).write(file);

            CliRun alive = CliRun.of("fuzz", target, "--replay", file.toString(), "--timeout", "2", "--watch-ms", "100");
            assertEquals(0, alive.exit(), alive.out() + alive.err());
            assertTrue(alive.out().contains("(the sequence 3..4, then 1 valid): the target did ") && alive.out().contains(
                    "it is alive"), alive.out());
            assertTrue(Files.size(dir.resolve("seq.replay.pcap")) > 0);
            assertFalse(Files.exists(Path.of("fuzz-out")), "nothing in the working directory");

            Path console = dir.resolve("console.log");
            Files.writeString(console, "[    5.539189] BUG: kernel NULL pointer dereference, address: 0000000000000004\n");
            CliRun crashed = CliRun.of("fuzz", target, "--replay", file.toString(), "--timeout", "2", "--watch-ms", "100",
                    "--hook-crashed", "grep -a -m1 -E 'BUG:|Oops|panic' " + console, "--out", dir.resolve("o").toString());
            assertEquals(1, crashed.exit(), crashed.out() + crashed.err());
            assertTrue(crashed.out().contains("it crashed: --hook-crashed: [    5.539189] BUG: kernel NULL pointer"),
                    crashed.out());
            assertTrue(Files.exists(dir.resolve("o/seq.replay.pcap")));
        }
    }
}
