package io.jrnic.interop.siw;

import java.io.IOException;
import java.io.PrintStream;

/**
 * One guest at a time, reused while the next case wants the same {@link GuestConfig} and the guest
 * is alive; otherwise closed and booted anew. One pool is one QEMU at a time; {@link MatrixLanes} runs a pool per lane.
 */
public final class GuestPool implements AutoCloseable {
    private final SiwImage image;
    private final PrintStream log;
    private SiwGuest guest;

    public GuestPool(SiwImage image, PrintStream log) {
        this.image = image;
        this.log = log;
    }

    /** A live guest booted with {@code config}. */
    public synchronized SiwGuest guestFor(GuestConfig config) throws IOException {
        return guestFor(config, false);
    }

    /** A live guest for {@code c}: a fresh one when the case asks ({@link SiwCase#freshGuest()}). */
    public synchronized SiwGuest guestFor(SiwCase c) throws IOException {
        return guestFor(c.config(), c.freshGuest());
    }

    private boolean lastWasFresh;

    /** A live guest booted with {@code config}; {@code fresh}: never used before, and used by no one after. */
    public synchronized SiwGuest guestFor(GuestConfig config, boolean fresh) throws IOException {
        if (guest != null && (fresh || lastWasFresh || !guest.alive() || !guest.config().equals(config))) {
            guest.close();
            guest = null;
        }
        lastWasFresh = fresh;
        if (guest == null) {
            guest = SiwGuest.boot(image, config);
            log.printf("booted %s %s in %.1f s (namespace %s)%n", config.variant().dir(), config.siwParams(),
                    guest.bootTime().toMillis() / 1000.0, guest.namespace());
        }
        return guest;
    }

    /** The current guest, or null. */
    public synchronized SiwGuest current() {
        return guest;
    }

    @Override
    public synchronized void close() {
        if (guest != null) {
            guest.close();
            guest = null;
        }
    }
}
