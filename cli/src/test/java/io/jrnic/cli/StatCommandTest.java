package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code jrnic stat PID} attaches (Attach API) to another JVM running jrnic and prints its counters. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StatCommandTest {

    @Test
    void attachesToARunningJvmAndPrintsCountersWithRates() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", StatTarget.class.getName())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String ready = r.readLine();
            assertTrue(ready != null && ready.startsWith("ready "), String.valueOf(ready));
            String pid = ready.substring(6);
            // StatTarget says ready once its devices count SENDs
            CliRun run = CliRun.of("stat", pid, "--interval", "1", "--count", "2");
            assertEquals(0, run.exit(), run.out() + run.err());
            String out = run.out();
            System.out.println(out);
            assertEquals(2, out.lines().filter(l -> l.startsWith("# ")).count(), "two samples");
            assertTrue(out.contains("io.jrnic:name=\"soft0\",type=Device"), out);
            assertTrue(out.contains("type=QueuePair"), out);
            // the second sample rates the pings of the last second
            Matcher m = Pattern.compile("txMessages\\.SEND +([\\d,]+) +([\\d,]+)/s").matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Long.parseLong(m.group(1).replace(",", "")) > 0);
            assertTrue(out.contains("txBytes") && out.contains("rxFpdus"), out);
            if (out.contains("tcp.")) {
                assertTrue(out.contains("tcp.sndCwnd"), out);
            }
        } finally {
            p.getOutputStream().close();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void anUnknownPidIsExitCode2() {
        CliRun run = CliRun.of("stat", "999999999");
        assertEquals(2, run.exit(), run.out() + run.err());
    }
}
