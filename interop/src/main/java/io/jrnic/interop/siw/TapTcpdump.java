package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump on the host, in the guest's namespace, on the tap the guest's eth0 is linked to. The tap is
 * the harness's (persistent across guest reboots), so the capture survives a guest that crashes.
 * {@link #stop} sends SIGTERM (tcpdump closes the file and reports its counts, as on SIGINT).
 */
final class TapTcpdump implements GuestCapture.Tcpdump {
    private static final long POLL_MS = 100;

    private final Process process;
    private final Path file;
    private final Path log;

    private TapTcpdump(Process process, Path file, Path log) {
        this.process = process;
        this.file = file;
        this.log = log;
    }

    static TapTcpdump start(SiwGuest guest, String name, String filter) throws IOException {
        Path file = Files.createTempFile("jrnic-siw-" + name + "-", ".pcap");
        Path log = Files.createTempFile("jrnic-siw-" + name + "-", ".tcpdump.log");
        List<String> cmd = new ArrayList<>(List.of("tcpdump"));
        cmd.addAll(Arrays.asList(GuestCapture.options().split(" ")));
        cmd.addAll(List.of("-i", NetNamespace.TAP, "-w", file.toString()));
        if (!filter.isBlank()) {
            cmd.add(filter);
        }
        Process p;
        try {
            p = guest.startHost(cmd, log);
        } catch (IOException | RuntimeException e) {
            for (Path f : List.of(file, log)) {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException x) {
                    e.addSuppressed(x); // the start's failure is the one to report
                }
            }
            throw e;
        }
        TapTcpdump t = new TapTcpdump(p, file, log);
        long deadline = System.nanoTime() + GuestCapture.LISTEN_TIMEOUT.toNanos();
        while (!t.logText().contains("listening on")) {
            if (!t.process.isAlive() || System.nanoTime() > deadline) {
                t.kill();
                throw new IOException("tcpdump did not start on the tap " + NetNamespace.TAP + ": " + t.logText());
            }
            sleep(POLL_MS);
        }
        return t;
    }

    private String logText() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    @Override
    public String stop(Path dest) throws IOException {
        // let the last segments (FIN/ACK) reach the file: wait until it stops growing (at most 5 s)
        long before = -1;
        for (int i = 0; i < 20 && Files.size(file) != before; i++) {
            before = Files.size(file);
            sleep(250);
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                Host.kill(process.toHandle());
                throw new IOException("tcpdump on the tap did not end on SIGTERM: " + logText());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted stopping tcpdump", e);
        }
        Files.createDirectories(dest.toAbsolutePath().getParent());
        Files.move(file, dest, StandardCopyOption.REPLACE_EXISTING);
        String report = logText();
        Files.deleteIfExists(log);
        return report;
    }

    @Override
    public boolean outlivesGuest() {
        return true;
    }

    @Override
    public void kill() {
        Host.kill(process.toHandle());
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // temp files only
        }
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
