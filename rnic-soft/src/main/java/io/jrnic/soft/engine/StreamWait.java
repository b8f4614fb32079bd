package io.jrnic.soft.engine;

import io.jrnic.verbs.spi.InputWaiter;
import io.netty.channel.epoll.EpollEventArray;
import io.netty.channel.epoll.EpollWaitAccess;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One wake-up for a consumer blocked on a completion (spec-notes/engine.md, "Blocking waiters"): the blocked thread
 * waits in an epoll set of the QP's own, on the QP's socket (level-triggered, added once per stream under the QP's
 * token, so the descriptor is the bound stream's and open; a wait is then one epoll_wait) and on an eventfd that
 * {@link #wake} writes. The kernel wakes it when the peer's bytes arrive and it reads them itself
 * ({@link ReceiveInPlace}); meanwhile the event loop does not read the stream (the waiter takes the reads over as busy
 * pollers do), so nothing wakes the loop per message.
 *
 * <p>Lifetime of the two descriptors: the QP's; one waiter at a time; a waker writes the eventfd only while counted
 * in, and the last one out after {@link #close} closes them, so no thread ever waits on, or writes into, a descriptor
 * number that was closed under it. Not on virtual threads (epoll_wait would hold the carrier): they wait on the CQ.
 */
final class StreamWait implements InputWaiter {
    private static final int CLOSED = 1 << 30;
    private static final int WAITER = 1;
    private static final int WAKER = 2;
    /** Attempts at the QP's token before a wait gives up (the owner holds it for microseconds at a time). */
    private static final int TOKEN_TRIES = 100;
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private final QpEngine qp;
    /** CLOSED bit, WAITER bit, wakers in (counted in units of WAKER). */
    private final AtomicInteger state = new AtomicInteger();
    private final FileDescriptor epoll;
    private final FileDescriptor wakeFd;
    private final EpollEventArray events = EpollWaitAccess.newEvents(2);
    /**
     * Waiter only: the stream whose socket is in the set (a stream's descriptor does not change while it is open). It
     * stays there, level-triggered, while that stream is bound and open (the kernel drops the entry when the socket
     * closes), so a wait adds nothing.
     */
    private ReceiveInPlace inSet;

    private StreamWait(QpEngine qp, FileDescriptor epoll, FileDescriptor wakeFd) {
        this.qp = qp;
        this.epoll = epoll;
        this.wakeFd = wakeFd;
    }

    /** The set for {@code qp}, or null when the descriptors cannot be made. */
    static StreamWait open(QpEngine qp) {
        FileDescriptor ep = null;
        try {
            ep = Native.newEpollCreate();
            FileDescriptor ev = Native.newEventFd();
            try {
                Native.epollCtlAdd(ep.intValue(), ev.intValue(), Native.EPOLLIN);
            } catch (IOException e) {
                ev.close();
                throw e;
            }
            return new StreamWait(qp, ep, ev);
        } catch (IOException | RuntimeException e) {
            if (ep != null) {
                try {
                    ep.close();
                } catch (IOException ignored) {
                    // nothing else to do with it
                }
            }
            return null;
        }
    }

    @Override
    public boolean await(long nanos) {
        if (onVirtualThread() || !enter(WAITER)) {
            return false;
        }
        try {
            ReceiveInPlace r = armed();
            if (r == null) {
                return false;
            }
            long ms = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
            int n;
            try {
                n = EpollWaitAccess.await(epoll, events, (int) Math.min(ms, Integer.MAX_VALUE));
            } finally {
                r.waiterLeaves();
            }
            for (int i = 0; i < n; i++) {
                if (EpollWaitAccess.fd(events, i) == wakeFd.intValue()) {
                    Native.eventFdRead(wakeFd.intValue());
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // the caller waits on the CQ; the stream's own failure reaches it as completions
        } finally {
            exit(WAITER);
        }
    }

    /**
     * Under the QP's token: puts the bound stream's socket in the set unless it is there already (a new stream, or a
     * new socket under the same number: the old entry left with its socket) and tells the stream a waiter reads it;
     * null when the QP does not receive in place now. Level-triggered: a wait returns at once while the socket holds
     * unread octets or the peer's FIN, as a one-shot entry armed before each wait did, without the epoll_ctl.
     */
    private ReceiveInPlace armed() throws IOException {
        for (int i = 0; !qp.lock.tryLock(); i++) {
            if (i == TOKEN_TRIES) {
                return null;
            }
            Thread.onSpinWait();
        }
        try {
            ReceiveInPlace r = qp.rxInPlace();
            int fd = r == null || !qp.receivesInPlace(r) ? -1 : r.socketFd();
            if (fd < 0) {
                return null;
            }
            if (r != inSet) {
                int flags = Native.EPOLLIN | Native.EPOLLRDHUP;
                try {
                    Native.epollCtlAdd(epoll.intValue(), fd, flags);
                } catch (IOException present) {
                    Native.epollCtlMod(epoll.intValue(), fd, flags);
                }
                inSet = r;
            }
            r.waiterArrives();
            qp.counters.inc(Counter.RX_CONSUMER_WAITS);
            return r;
        } finally {
            qp.lock.unlock();
        }
    }

    @Override
    public void wake() {
        if ((state.get() & WAITER) == 0 || !enter(WAKER)) {
            return;
        }
        try {
            Native.eventFdWrite(wakeFd.intValue(), 1);
        } catch (RuntimeException e) {
            // the waiter's own timeout ends its wait
        } finally {
            exit(WAKER);
        }
    }

    /** The QP is destroyed: the descriptors close now, or when the last thread inside leaves (a waiter is woken). */
    void close() {
        int s = state.getAndUpdate(v -> v | CLOSED);
        if ((s & CLOSED) != 0) {
            return;
        }
        if (s == 0) {
            release();
        } else if (enterClosed()) {
            // someone is inside: wake a waiter; whoever leaves last closes
            try {
                Native.eventFdWrite(wakeFd.intValue(), 1);
            } catch (RuntimeException ignored) {
                // the waiter's timeout ends its wait
            } finally {
                exit(WAKER);
            }
        }
    }

    private boolean enter(int who) {
        while (true) {
            int s = state.get();
            if ((s & CLOSED) != 0 || (who == WAITER && (s & WAITER) != 0)) {
                return false;
            }
            if (state.compareAndSet(s, s + who)) {
                return true;
            }
        }
    }

    /** As a waker although closed: only while someone else is still inside (so the descriptors are open). */
    private boolean enterClosed() {
        while (true) {
            int s = state.get();
            if (s == CLOSED) {
                return false;
            }
            if (state.compareAndSet(s, s + WAKER)) {
                return true;
            }
        }
    }

    private void exit(int who) {
        if (state.addAndGet(-who) == CLOSED) {
            release();
        }
    }

    private void release() {
        EpollWaitAccess.free(events);
        try {
            wakeFd.close();
        } catch (IOException ignored) {
            // closing is all that is left
        }
        try {
            epoll.close();
        } catch (IOException ignored) {
            // closing is all that is left
        }
    }

    /** Whether the calling thread is virtual (JDK 21+; never on 17). */
    static boolean onVirtualThread() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null; // before JDK 21
        }
    }
}
