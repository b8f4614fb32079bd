package io.jrnic.interop.siw;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What must be closed if the JVM exits first (QEMU processes, network namespaces), and the refusal to start more
 * once it is exiting. One JVM shutdown hook ({@link #GUESTS}) closes every {@link SiwGuest} still live. A guest is
 * started under this set's lock by {@link #admit}, so the hook either finds it in the set or the start is refused:
 * no QEMU can be started behind the hook's back (before this, a `jrnic interop` sent SIGTERM kept booting guests
 * for the cases still queued, each one orphaned, because registering a shutdown hook during shutdown throws after
 * QEMU has started).
 */
final class ShutdownSet<T> {
    /** Something that starts a resource and may fail. */
    interface Start<T> {
        T start() throws IOException;
    }

    static final ShutdownSet<SiwGuest> GUESTS = new ShutdownSet<>(SiwGuest::closeForShutdown);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(GUESTS::shutDown, "jrnic-siw-shutdown"));
    }

    private final Consumer<T> closer;
    private final Set<T> live = new LinkedHashSet<>();
    private boolean shuttingDown;

    ShutdownSet(Consumer<T> closer) {
        this.closer = closer;
    }

    /** Runs {@code start} and keeps what it returns, unless shutdown has begun (then {@code start} never runs). */
    T admit(Start<T> start) throws IOException {
        synchronized (live) {
            if (shuttingDown) {
                throw new IOException("the JVM is exiting: no guest is started");
            }
            T t = start.start();
            live.add(t);
            return t;
        }
    }

    /** {@code t} was closed by its owner: nothing left for the hook. */
    void forget(T t) {
        synchronized (live) {
            live.remove(t);
        }
    }

    /** Refuses every later {@link #admit} and closes what is live (the shutdown hook's work). */
    void shutDown() {
        List<T> all;
        synchronized (live) {
            shuttingDown = true;
            all = new ArrayList<>(live);
            live.clear();
        }
        for (T t : all) {
            try {
                closer.accept(t);
            } catch (RuntimeException e) {
                // best effort: the next one still gets closed
            }
        }
    }
}
