package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs host commands (ip, the JVM in a namespace) with a deadline; never hangs. */
final class Host {
    private Host() {
    }

    /** Runs {@code cmd} to completion or kills it (and its descendants) at {@code timeout}. */
    static ExecResult run(List<String> cmd, Duration timeout) throws IOException {
        long t0 = System.nanoTime();
        Path out = Files.createTempFile("jrnic-siw-host", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                kill(p.toHandle());
                p.waitFor(5, TimeUnit.SECONDS);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            int rc = done ? p.exitValue() : ExecResult.KILLED;
            return new ExecResult(String.join(" ", cmd), rc, text, Duration.ofNanos(System.nanoTime() - t0));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + cmd, e);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Like {@link #run} but an exit status other than 0 is an IOException. */
    static ExecResult check(List<String> cmd, Duration timeout) throws IOException {
        ExecResult r = run(cmd, timeout);
        if (!r.ok()) {
            throw new IOException(r.toString());
        }
        return r;
    }

    /** Kills a process we started and everything it started. */
    static void kill(ProcessHandle h) {
        h.descendants().forEach(ProcessHandle::destroyForcibly);
        h.destroyForcibly();
    }
}
