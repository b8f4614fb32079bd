package io.jrnic.cli.perf;

import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionChannel;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.RdmaDevice;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Completion-queue and memory polling helpers shared by both roles. */
final class Cq {
    /** Longest single block on the completion channel: waits for the control channel are checked this often. */
    static final long BLOCK_MILLIS = 1;

    /** How a wait for a completion idles. */
    enum Wait {
        /** Bandwidth loops: spin, yield, then block on the completion channel ({@link Deadline#idle(String, Deadline.Blocker)}). */
        BACKOFF,
        /** Busy-polling latency: spin up to {@link Deadline#SPIN_NANOS}, then park; never blocks. */
        POLL,
        /** Blocking latency: arm, re-check, block on the completion channel at once. */
        BLOCK;

        static Wait of(Kind k) {
            return switch (k) {
                case BW, BW_MSG -> BACKOFF;
                case LAT -> POLL;
                case LAT_BLOCK, LAT_BLOCK_VT -> BLOCK;
            };
        }
    }

    private final CompletionQueue cq;
    private final CompletionChannel channel;
    private final Deadline.Blocker blocker;
    private final Wait wait;
    final Completion[] batch = Completion.array(64);

    Cq(CompletionQueue cq) {
        this(cq, Wait.BACKOFF);
    }

    Cq(CompletionQueue cq, Wait wait) {
        this.cq = cq;
        this.channel = cq.channel();
        this.blocker = channel == null ? null : this::block;
        if (wait == Wait.BLOCK && channel == null) {
            throw new IllegalArgumentException("a blocking wait needs a CQ with a completion channel");
        }
        this.wait = wait;
    }

    /** A CQ of {@code capacity} notifying a channel of its own (closed with the CQ by {@link #closeCq}). */
    static CompletionQueue create(RdmaDevice device, int capacity, Object context) {
        CompletionChannel ch = device.createCompletionChannel();
        try {
            return device.createCq(capacity, ch, context);
        } catch (RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Closes a CQ made by {@link #create} and its channel. */
    static void closeCq(CompletionQueue cq) {
        CompletionChannel ch = cq.channel();
        cq.close();
        if (ch != null) {
            ch.close();
        }
    }

    /**
     * Nothing polled: idle as this CQ's {@link Wait} says; a block on the completion channel is woken by the next
     * completion, or after {@link #BLOCK_MILLIS}. Only for waits a completion ends.
     */
    void idle(Deadline d, Object waitingFor) throws TimeoutException {
        switch (wait) {
            case BACKOFF -> d.idle(waitingFor, blocker);
            case POLL -> d.idlePolling(waitingFor);
            case BLOCK -> d.idleBlocking(waitingFor, blocker);
        }
    }

    private void block() {
        cq.requestNotify(false);
        if (cq.size() > 0) {
            return; // arrived before the arming: poll it now (the notification fired later is harmless)
        }
        try {
            channel.await(BLOCK_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes a batch, blocking up to {@code timeout} ({@code CompletionQueue.take}); {@link WorkFailed} as {@link #poll}. */
    int take(java.time.Duration timeout) throws InterruptedException {
        int n = cq.take(batch, timeout);
        for (int i = 0; i < n; i++) {
            if (!batch[i].isOk()) {
                throw new WorkFailed(batch[i]);
            }
        }
        return n;
    }

    /** Polls a batch (never blocks); throws {@link WorkFailed} on the first completion in error. */
    int poll() {
        int n = cq.poll(batch);
        for (int i = 0; i < n; i++) {
            if (!batch[i].isOk()) {
                throw new WorkFailed(batch[i]);
            }
        }
        return n;
    }

    static boolean isRecv(Completion c) {
        return c.opcode() == CompletionOpcode.RECV || c.opcode() == CompletionOpcode.RECV_IMMEDIATE;
    }

    /**
     * Waits until byte {@code i} of {@code b} (placed by the peer's RDMA WRITE) is {@code v}; {@code abort} is checked now
     * and then; {@code progress} (may be null) is the CQ whose QP receives the WRITE, asked to progress in between;
     * {@code what} (the caller's, one per loop) names the wait if it times out.
     */
    static void awaitByte(PerfBuffer b, int i, byte v, Deadline d, Check abort, Cq progress, Waiting what)
            throws TimeoutException, java.io.IOException {
        int n = 0;
        what.at(i, v & 0xFF);
        while (b.getAcquire(i) != v) {
            // a software RNIC places on the polling thread when asked (CompletionQueue.progress): without it the
            // wait is for the provider's event loop to be woken
            if (progress != null && progress.cq.progress()) {
                continue;
            }
            if ((++n & 255) == 0 && abort != null) {
                String why = abort.why();
                if (why != null) {
                    throw new TimeoutException(why);
                }
            }
            d.idlePolling(what);
        }
        d.progress();
    }

    /** Polls until a send-queue completion arrives (receive completions met on the way are dropped). */
    void awaitSend(Deadline d) throws TimeoutException {
        while (true) {
            int n = poll();
            for (int i = 0; i < n; i++) {
                if (!isRecv(batch[i])) {
                    d.progress();
                    return;
                }
            }
            idle(d, "a send completion");
        }
    }

    /** A periodic abort check: a reason to stop, or null. */
    interface Check {
        String why() throws java.io.IOException;
    }

    /** A completion in error. */
    static final class WorkFailed extends RuntimeException {
        WorkFailed(Completion c) {
            super("wr " + c.id() + " " + c.opcode() + ": " + c.status()
                    + (c.terminate() == null ? "" : " terminate " + c.terminate()));
        }
    }
}
