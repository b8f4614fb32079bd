package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Small steps the jrnic-vs-siw cases share. */
final class CaseSupport {
    private CaseSupport() {
    }

    /** Waits until a host process in the namespace listens on {@code port} (probing would use up its one accept). */
    static void awaitHostListening(SiwGuest guest, Process p, int port) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < deadline && p.isAlive()
                && !guest.runHost(List.of("ss", "-ltn"), Duration.ofSeconds(10)).output().contains(":" + port + " ")) {
            Thread.sleep(200);
        }
    }

    /** Waits until a guest program listens on {@code port}. */
    static void awaitGuestListening(SiwGuest guest, int port) throws IOException {
        guest.exec("i=0; until ss -ltn | grep -q ':" + port + " '; do [ $i -ge 100 ] && exit 1; sleep 0.1;"
                + " i=$((i+1)); done", Duration.ofSeconds(20));
    }

    /** Waits for a host process (killed after {@code seconds}) and returns its exit and log. */
    static ExecResult finish(Process p, List<String> cmd, Path log, long seconds, long t0)
            throws IOException, InterruptedException {
        boolean ended = p.waitFor(seconds, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        return new ExecResult(String.join(" ", cmd), ended ? p.exitValue() : ExecResult.KILLED, Files.readString(log),
                Duration.ofNanos(System.nanoTime() - t0));
    }

    static CaseResult result(String name, List<String> failures, String summary, long t0, List<Path> artifacts) {
        String detail = failures.isEmpty() ? summary : String.join("; ", failures) + " | " + summary;
        return new CaseResult(name, failures.isEmpty() ? CaseResult.Outcome.PASS : CaseResult.Outcome.FAIL, detail,
                Duration.ofNanos(System.nanoTime() - t0), artifacts);
    }
}
