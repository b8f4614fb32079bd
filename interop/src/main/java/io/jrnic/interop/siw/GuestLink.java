package io.jrnic.interop.siw;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The host's link to one boot of a {@link SiwGuest}: waits until the guest is ready (the console's
 * {@value SiwGuest#READY}, the control channel connected, a probe answered), runs commands over the control channel,
 * and tells a dead guest from a slow one (QEMU exited, the kernel's death marker on the console, a command left
 * unanswered past its grace). The first failure is kept: every later command reports it instead of running. A
 * reboot makes a new link.
 */
final class GuestLink {
    private final Process qemu;
    private final GuestConsole console;
    private final Path socket;
    private ControlChannel control;
    private volatile String failure;

    GuestLink(Process qemu, GuestConsole console, Path socket) {
        this.qemu = qemu;
        this.console = console;
        this.socket = socket;
    }

    /** Returns once the guest printed {@value SiwGuest#READY} and answers on the control channel. */
    void awaitReady(long t0, Duration bootTimeout) throws IOException {
        long deadline = t0 + bootTimeout.toNanos();
        while (!console.text().contains(SiwGuest.READY)) {
            checkAlive(GuestFailureException.Kind.BOOT);
            if (System.nanoTime() > deadline) {
                throw new GuestFailureException(GuestFailureException.Kind.BOOT,
                        "no \"" + SiwGuest.READY + "\" within " + bootTimeout.toSeconds() + " s", console.tail(40));
            }
            sleep(100);
        }
        IOException last = null;
        for (int i = 0; i < 50 && control == null; i++) {
            try {
                control = ControlChannel.connect(socket);
            } catch (IOException e) {
                last = e;
                sleep(100);
            }
        }
        if (control == null) {
            throw new IOException("cannot connect to " + socket, last);
        }
        ExecResult probe = exec("echo ok", Duration.ofSeconds(30));
        if (!probe.output().trim().equals("ok")) {
            throw new GuestFailureException(GuestFailureException.Kind.BOOT, "control probe answered " + probe,
                    console.tail(40));
        }
    }

    private void checkAlive(GuestFailureException.Kind kind) {
        if (!qemu.isAlive()) {
            failure = "QEMU exited with " + qemu.exitValue();
            throw new GuestFailureException(kind == GuestFailureException.Kind.BOOT ? kind
                    : GuestFailureException.Kind.DEAD, failure, console.failureExcerpt());
        }
        String m = console.deathMarker();
        if (m != null) {
            failure = "guest kernel: " + m;
            throw new GuestFailureException(kind == GuestFailureException.Kind.BOOT ? kind
                    : GuestFailureException.Kind.DEAD, failure, console.failureExcerpt());
        }
    }

    /** See {@link SiwGuest#exec}. */
    ExecResult exec(String script, Duration timeout) throws IOException {
        if (failure != null) {
            throw new GuestFailureException(GuestFailureException.Kind.DEAD, failure, console.failureExcerpt());
        }
        try {
            return control.exec(script, timeout, SiwGuest.GRACE);
        } catch (ControlChannel.SilentException e) {
            sleep(500); // let a dying kernel finish its console output
            checkAlive(GuestFailureException.Kind.DEAD);
            failure = e.getMessage();
            throw new GuestFailureException(GuestFailureException.Kind.HUNG, e.getMessage(), console.failureExcerpt());
        }
    }

    /** QEMU runs, the kernel has not panicked and no command went unanswered. */
    boolean alive() {
        return failure == null && qemu.isAlive() && console.deathMarker() == null;
    }

    /** Closes the control channel (QEMU is the guest's to kill). */
    void close() {
        try {
            if (control != null) {
                control.close();
            }
        } catch (IOException e) {
            // the guest goes anyway
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
