package io.jrnic.interop.siw;

import io.jrnic.interop.decode.FpduRecord;
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

    /**
     * What both sides of a two-sided case ended with, and the guest's state taken when the jrnic side failed while
     * the siw program still ran ({@link #guestState}; null when not taken).
     */
    record Sides(ExecResult jrnic, ExecResult siw, String guestState) {
        Sides(ExecResult jrnic, ExecResult siw) {
            this(jrnic, siw, null);
        }

        /**
         * Saves {@link #guestState} as {@link SiwMatrix#guestStateFile}: the note for the case's detail (empty when
         * there is none). A case that fails where siw never answers (no MPA Reply, a hung server) is judged from this.
         */
        String saveGuestState(Path outDir, String name) throws IOException {
            if (guestState == null) {
                return "";
            }
            Path f = SiwMatrix.guestStateFile(outDir, name);
            Files.writeString(f, guestState);
            return " | guest state when jrnic failed: " + f.getFileName();
        }
    }

    /**
     * The guest's sockets, RDMA CM IDs and QPs, the RDMA programs running and where in the kernel each waits, and the
     * kernel log's tail: taken while a guest program that did not answer still runs. Diagnostics only: a tool the
     * image lacks prints nothing, and a control channel that fails here leaves the case's own outcome to report.
     */
    static String guestState(SiwGuest guest) {
        ExecResult r;
        try {
            r = guest.exec("echo '# ss -tanoi'; ss -tanoi; echo '# rdma res show cm_id'; rdma res show cm_id;"
                + " echo '# rdma res show qp'; rdma res show qp; echo '# RDMA programs: pid, name, wchan: command line; kernel stack';"
                + " for p in /proc/[0-9]*; do c=$(cat $p/comm 2>/dev/null); case \"$c\" in ib_*|rping|rdma_*|udaddy|ucmatose|"
                + "riostream|rstream|nc) a=$(tr '\\0' ' ' < $p/cmdline 2>/dev/null); [ -n \"$a\" ] || continue;" // not kernel threads
                + " echo \"${p#/proc/} $c $(cat $p/wchan 2>/dev/null): $a\"; cat $p/stack 2>/dev/null;; esac;"
                + " done; echo '# dmesg (last 40 lines)'; dmesg | tail -n 40", Duration.ofSeconds(15));
        } catch (IOException e) {
            return "guest state not taken: " + e + "\n";
        }
        return r.output();
    }

    /**
     * The two-sided template, siw serving: the siw program starts in the guest's background as {@code tag},
     * once its port listens the jrnic client runs on the host, then the server's result is collected.
     */
    static Sides siwServes(SiwGuest guest, String tag, String siwServer, int port, List<String> jrnicClient,
                           Duration clientLimit) throws IOException {
        guest.startBackground(tag, "exec " + siwServer);
        awaitGuestListening(guest, port);
        ExecResult jr = guest.runHost(jrnicClient, clientLimit);
        String state = jr.ok() ? null : guestState(guest); // before the server is waited for and stopped
        return new Sides(jr, awaitBackground(guest, tag), state);
    }

    /**
     * The two-sided template, jrnic serving: the jrnic server starts on the host (its output in {@code log}),
     * once it listens the siw client runs in the guest, then the server's exit (killed after 30 s) is collected.
     */
    static Sides jrnicServes(SiwGuest guest, List<String> jrnicServer, Path log, int port, String siwClient,
                             Duration clientLimit, long t0) throws IOException, InterruptedException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process server = guest.startHost(jrnicServer, log);
        awaitHostListening(guest, server, port);
        ExecResult siw = guest.exec(siwClient, clientLimit);
        return new Sides(finish(server, jrnicServer, log, 30, t0), siw);
    }

    /** A guest background program's result: waited for up to 30 s, then stopped with TERM. */
    static ExecResult awaitBackground(SiwGuest guest, String tag) throws IOException {
        ExecResult r = guest.waitBackground(tag, Duration.ofSeconds(30));
        return r.exitCode() == -1 ? guest.stopBackground(tag, "TERM") : r;
    }

    /**
     * Whether siw's {@code rping -s} finished its run: exit 0, or rping's own teardown race after the client's
     * disconnect ("server DISCONNECT EVENT"): the main thread destroys the CM event channel while rping's CM thread
     * still waits in {@code rdma_get_cm_event}, which fails with EBADF, and that thread ends the process with status 255
     * ("rdma_get_cm_event: Bad file descriptor"). Seen once in a CI rehearsal of the siw-to-siw case, where no jrnic
     * code runs; the data are checked by the client's status ({@code -V}) and the capture, not by this status.
     */
    static boolean rpingServerFinished(ExecResult server) {
        if (server.exitCode() == 0) {
            return true;
        }
        String out = server.output().strip();
        return server.exitCode() == 255 && out.contains("server DISCONNECT EVENT")
                && out.endsWith("rdma_get_cm_event: Bad file descriptor");
    }

    /**
     * The Terminate as the capture decoder described it (layer, type, code, and the layout it was
     * decoded in: "siw layout" in its description, else RFC); null when the capture could not decode it.
     */
    static PeerResult.Terminated capturedTerminate(FpduRecord terminate) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Terminate (\\w+) etype (\\d+) code 0x(\\w\\w)")
                .matcher(terminate.info());
        if (!m.find()) {
            return null;
        }
        int layer = switch (m.group(1)) {
            case "RDMAP" -> 0;
            case "DDP" -> 1;
            default -> 2;
        };
        return new PeerResult.Terminated(layer, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3), 16),
                terminate.info().contains("siw layout") ? "SIW" : "RFC");
    }

    /**
     * Expects the jrnic peer's RESULT line to report the Terminate the capture shows siw sent (same
     * layer, type and code; read in siw's layout, as the cases ask with {@code --terminates SIW}).
     */
    static void expectReported(FpduRecord terminate, ExecResult jr, List<String> failures) {
        PeerResult.Terminated want = capturedTerminate(terminate);
        if (want == null) {
            failures.add("undecoded Terminate: " + terminate);
            return;
        }
        PeerResult res = peerResult(jr, failures);
        GuestBootCase.expect(failures, res == null || want.equals(res.terminate()),
                "jrnic did not report siw's Terminate " + want + ": " + jr.output());
    }

    /** The jrnic peer's RESULT line ({@link PeerResult}), or null with a failure recorded when it has none. */
    static PeerResult peerResult(ExecResult jr, List<String> failures) {
        try {
            PeerResult r = PeerResult.parse(jr.output()).orElse(null);
            if (r == null) {
                failures.add("jrnic printed no RESULT line: " + jr.output());
            }
            return r;
        } catch (RuntimeException e) {
            failures.add("jrnic's RESULT line is malformed (" + e.getMessage() + "): " + jr.output());
            return null;
        }
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
