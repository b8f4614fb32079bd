package io.netty.channel.epoll;

import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;

/**
 * jrnic's one reach into Netty's package-private epoll API (a class in Netty's package, so on the class path only;
 * spec-notes/engine.md, "Blocking waiters"): an {@link EpollEventArray} and a plain epoll_wait with a timeout in
 * milliseconds, for a consumer thread that waits on a QP's socket itself. Everything else it uses
 * ({@link Native#newEpollCreate}, {@link Native#epollCtlAdd}, eventfds) is Netty's public API.
 */
public final class EpollWaitAccess {
    private EpollWaitAccess() {
    }

    /** An event array of {@code length} entries (native memory: {@link #free} it). */
    public static EpollEventArray newEvents(int length) {
        return new EpollEventArray(length);
    }

    /** epoll_wait(2) on {@code epoll} for at most {@code timeoutMillis}: the number of ready entries. */
    public static int await(FileDescriptor epoll, EpollEventArray events, int timeoutMillis) throws IOException {
        return Native.epollWait(epoll, events, timeoutMillis);
    }

    /** The descriptor of ready entry {@code i}. */
    public static int fd(EpollEventArray events, int i) {
        return events.fd(i);
    }

    public static void free(EpollEventArray events) {
        events.free();
    }
}
