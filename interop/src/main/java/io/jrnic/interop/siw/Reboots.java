package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fresh guests for a host process's {@code --hook-before}: the hook creates {@code reboot.req} and waits for
 * {@code reboot.done}; this watcher reboots the guest in place ({@link SiwGuest#reboot}), restarts what the
 * guest side needs, and answers. The first request stops the case's capture (the fuzz run's traffic); the
 * console of each guest that goes is kept as {@code console-N.txt} (1: the run's crash).
 */
final class Reboots implements AutoCloseable {
    /** What runs in the guest after each reboot (the rping clients). */
    @FunctionalInterface
    interface GuestSide {
        void start() throws IOException;
    }

    private final Thread watcher;
    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean closed;

    Reboots(SiwGuest guest, Path dir, GuestCapture capture, GuestSide side) {
        Path req = dir.resolve("reboot.req");
        Path done = dir.resolve("reboot.done");
        watcher = new Thread(() -> {
            while (!closed) {
                try {
                    if (Files.deleteIfExists(req)) {
                        if (count.get() == 0 && capture != null && !capture.stopped()) {
                            try {
                                capture.stop(dir.resolve("fuzz.pcap"));
                            } catch (IOException | RuntimeException e) {
                                capture.abandon();   // a crashed guest may not hand its capture over
                            }
                        }
                        // the console of the guest that goes (the first: the run's crash), kept for the report
                        Files.writeString(dir.resolve("console-" + (count.get() + 1) + ".txt"), guest.consoleText(),
                                java.nio.charset.StandardCharsets.ISO_8859_1);
                        guest.reboot();
                        side.start();
                        count.incrementAndGet();
                        Files.writeString(done, "ok\n");
                    }
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException | RuntimeException e) {
                    try {
                        Files.writeString(done, "failed: " + e.getMessage() + "\n");
                    } catch (IOException ignored) {
                        // the hook times out
                    }
                }
            }
        }, "jrnic-siw-reboots");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The before hook: ask, wait (90 s at most), succeed only on "ok". */
    static String hook(Path dir) {
        Path req = dir.resolve("reboot.req");
        Path done = dir.resolve("reboot.done");
        return "rm -f " + done + "; touch " + req + "; i=0; while [ ! -e " + done + " ] && [ $i -lt 900 ]; do sleep 0.1;"
                + " i=$((i+1)); done; grep -q '^ok' " + done + " 2>/dev/null";
    }

    int count() {
        return count.get();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        watcher.interrupt();
        watcher.join(5000);
    }
}
