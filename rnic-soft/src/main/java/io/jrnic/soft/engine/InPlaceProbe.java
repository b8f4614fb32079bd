package io.jrnic.soft.engine;

import io.netty.channel.Channel;
import java.util.function.Consumer;

/**
 * A test seam: runs a probe on the thread that reads a stream in place, holding the QP's ownership, just before
 * the read's system call, so that a test can force what may happen to the stream in that window (its close by
 * another thread, a descriptor number reused). Unset (the default) it costs one volatile read.
 */
public final class InPlaceProbe {
    private static volatile Consumer<Channel> beforeRead;

    private InPlaceProbe() {
    }

    /** Installs {@code probe} (null removes it). */
    public static void beforeRead(Consumer<Channel> probe) {
        beforeRead = probe;
    }

    static void beforeRead(Channel ch) {
        Consumer<Channel> p = beforeRead;
        if (p != null) {
            p.accept(ch);
        }
    }
}
