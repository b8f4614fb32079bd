package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.cli.perf.RpingPersistentServer;
import io.jrnic.conform.ConformOptions;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Role;
import io.jrnic.conform.Target;
import io.jrnic.conform.fuzz.Fuzzer;
import io.jrnic.verbs.ConnectOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** jrnic fuzz against jrnic's own rping server: a bounded run (150 executions) that must find nothing. */
class FuzzSelfTest {
    @Test
    void aBoundedFuzzRunAgainstJrnicFindsNothingAndReachesEveryLayer() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        Path out = Files.createTempDirectory("jrnic-fuzz");
        try (RpingPersistentServer s = new RpingPersistentServer("soft", new InetSocketAddress(lo, 0), 64, ConnectOptions.defaults())) {
            Thread serving = new Thread(() -> {
                try {
                    s.serve(60, 0, null, new PrintWriter(new StringWriter()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            serving.setDaemon(true);
            serving.start();
            ConformOptions o = ConformOptions.initiator(new InetSocketAddress(lo, s.localAddress().getPort()))
                    .withTimeout(Duration.ofSeconds(2)).withConnectWait(Duration.ofSeconds(5));
            StringWriter log = new StringWriter();
            Fuzzer.Stats st = new Fuzzer(o, Role.INITIATOR, Target.NONE, out, Duration.ofMillis(200), new PrintWriter(log))
                    .run(1, 150, Duration.ofSeconds(120), 1);
            assertEquals(150, st.executions(), log.toString());
            assertTrue(st.findings().isEmpty(), "findings against jrnic: " + st.findings() + "\n" + log);
            assertTrue(st.outcomes().getOrDefault(Observation.Kind.TERMINATE, 0L) > 10, st.outcomes().toString());
            assertTrue(st.outcomes().getOrDefault(Observation.Kind.PROCEEDED, 0L)
                    + st.outcomes().getOrDefault(Observation.Kind.SILENT, 0L) > 0, st.outcomes().toString());
        }
    }
}
