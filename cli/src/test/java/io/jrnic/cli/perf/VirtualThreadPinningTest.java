package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 21: a virtual thread waiting for a completion does not pin its carrier. Runs {@link VtBlockingProbe} in a
 * child JVM on JDK 25 (the build's JDK 17 has no virtual threads) with a JFR recording of
 * {@code jdk.VirtualThreadPinned} at threshold 0, and reads it back with that JDK's {@code jfr print}: 0 events from
 * 16 pairs of virtual threads blocking in {@code CompletionQueue.take} and {@code CompletionChannel.await} around a
 * SEND ping-pong over 127.0.0.1. The same program with one wait inside a class initializer (JDK 25 still pins there,
 * as in native frames) must record events: the recording is shown to catch pinning. And {@code jrnic perf}'s
 * blocking rows on virtual threads run and verify there ({@link VtPerfRows}).
 *
 * <p>The JDK: system property {@value #PROPERTY}, else environment variable {@value #ENV}, else
 * {@value #DEFAULT_HOME}; none there fails the test ({@code .ci/run} provides one). JDK 24+ counts (JEP 491: a
 * monitor no longer pins); JDK 21-23 pins on {@code synchronized}/{@code Object.wait}, which no blocking path of
 * the verbs API uses (CompletionQueue.take waits on a {@code Condition}), but this test cannot show it there. Nor
 * does the recording see a virtual thread blocked inside a native call (it holds its carrier without parking).
 */
class VirtualThreadPinningTest {
    static final String PROPERTY = "jrnic.jdk25";
    static final String ENV = "JAVA25_HOME";
    static final String DEFAULT_HOME = "/usr/lib/jvm/temurin-25-jdk-amd64";
    private static final long CHILD_SECONDS = 120;

    @Test
    void virtualThreadsBlockedOnCompletionsPinNoCarrier() throws Exception {
        Path jdk = jdk25();
        Path jfr = run(jdk, "clean");
        List<String> pinned = pinnedEvents(jdk, jfr);
        assertEquals(0, count(pinned), () -> "virtual threads waiting for completions pinned their carrier:\n"
                + String.join("\n", pinned));
    }

    @Test
    void aWaitInAClassInitializerIsCaughtPinning() throws Exception {
        Path jdk = jdk25();
        Path jfr = run(jdk, "pin");
        List<String> pinned = pinnedEvents(jdk, jfr);
        assertTrue(count(pinned) > 0, "the recording saw no pinning of a wait inside a class initializer: it would not"
                + " see pinning elsewhere either");
        assertTrue(String.join("\n", pinned).contains("VtBlockingProbe$ClassInitPin"),
                () -> "the pinned events are not the deliberate one:\n" + String.join("\n", pinned));
    }

    @Test
    void perfBlockingRowsOnVirtualThreadsRunAndVerifyOnJdk25() throws Exception {
        Path jdk = jdk25();
        Path log = Path.of("target", "vt-pinning", "perf-rows.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(jdk.resolve("bin/java").toString(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", cp, VtPerfRows.class.getName(), "20").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(CHILD_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("the perf rows did not end within " + CHILD_SECONDS + " s; log " + log + ":\n" + tail(log));
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), () -> "log " + log + ":\n" + out);
        // both rows measured on both sides (RDMA and TCP iterations), data verified
        assertTrue(out.matches("(?s).*\nlat-block-vt,read,64,20,.*,20,.*,ok,.*"), out);
        assertTrue(out.matches("(?s).*\nlat-block-vt,send,64,20,.*,20,.*,ok,.*"), out);
    }

    /** The JDK 25 home, or a failure saying where it was looked for. */
    static Path jdk25() throws IOException {
        String p = System.getProperty(PROPERTY);
        String e = System.getenv(ENV);
        Path home = Path.of(p != null && !p.isBlank() ? p : e != null && !e.isBlank() ? e : DEFAULT_HOME);
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isExecutable(home.resolve("bin/jfr"))
                || !Files.isRegularFile(release)) {
            fail("no JDK 25 at " + home + " (looked at -D" + PROPERTY + ", then $" + ENV + ", then " + DEFAULT_HOME
                    + "): the virtual-thread pinning test needs one; .ci/run provides it in CI");
        }
        int feature = feature(Files.readString(release));
        if (feature < 25) {
            fail(home + " is JDK " + feature + ", the pinning test needs JDK 25 (set -D" + PROPERTY + " or $" + ENV + ")");
        }
        return home;
    }

    /** The feature release from a JDK's {@code release} file ({@code JAVA_VERSION="25.0.3"}); 0 if absent. */
    static int feature(String release) {
        for (String line : release.split("\n")) {
            if (line.startsWith("JAVA_VERSION=")) {
                String v = line.substring("JAVA_VERSION=".length()).replace("\"", "").trim();
                int end = 0;
                while (end < v.length() && Character.isDigit(v.charAt(end))) {
                    end++;
                }
                return end == 0 ? 0 : Integer.parseInt(v.substring(0, end));
            }
        }
        return 0;
    }

    /** Runs the probe in {@code mode} on {@code jdk} with the recording on; the recording's path. */
    private static Path run(Path jdk, String mode) throws IOException, InterruptedException {
        Path dir = Path.of("target", "vt-pinning");
        Files.createDirectories(dir);
        Path jfr = dir.resolve(mode + ".jfr").toAbsolutePath();
        Files.deleteIfExists(jfr);
        Path log = dir.resolve(mode + ".log").toAbsolutePath();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(jdk.resolve("bin/java").toString(),
                "-XX:StartFlightRecording:filename=" + jfr + ",dumponexit=true,settings=none,"
                        + "+jdk.VirtualThreadPinned#enabled=true,+jdk.VirtualThreadPinned#threshold=0ms,"
                        + "+jdk.VirtualThreadPinned#stackTrace=true",
                "-Djdk.virtualThreadScheduler.parallelism=2", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", cp, VtBlockingProbe.class.getName(), mode, "16", "50"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(CHILD_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("the probe (" + mode + ") did not end within " + CHILD_SECONDS + " s; log " + log + ":\n" + tail(log));
        }
        String out = Files.readString(log);
        if (p.exitValue() != 0 || !out.contains("vt-probe ok")) {
            fail("the probe (" + mode + ") failed, exit " + p.exitValue() + "; log " + log + ":\n" + tail(log));
        }
        assertTrue(out.contains("vt-probe ok: 32 virtual threads (32 checked virtual)"), () -> "probe: " + out);
        assertTrue(Files.size(jfr) > 0, "no recording at " + jfr);
        return jfr;
    }

    /** {@code jfr print --events jdk.VirtualThreadPinned} of that JDK, as lines. */
    private static List<String> pinnedEvents(Path jdk, Path jfr) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jdk.resolve("bin/jfr").toString(), "print", "--events", "jdk.VirtualThreadPinned",
                jfr.toString()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("jfr print failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return List.of(new String(out, StandardCharsets.UTF_8).split("\n"));
    }

    private static long count(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("jdk.VirtualThreadPinned {")).count();
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join(File.separator.equals("/") ? "\n" : "\r\n",
                lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
