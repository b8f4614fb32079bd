package io.jrnic.verbs;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Convenience layer: one future per operation, built on {@link QueuePair#postSend} /
 * {@link QueuePair#postRecv} and {@link CompletionQueue#poll} (not beside them). Each call allocates
 * a fresh work request (always signaled) and a future; the future completes on whichever thread
 * polls the QP's CQ (the application's poll loop, or a {@link CompletionChannel} callback that
 * polls), with a private {@link Completion} copy, or exceptionally with
 * {@link WorkCompletionException} for an error status (WR_FLUSH_ERROR when the QP is closed).
 * These completions are not returned in poll arrays. Misuse still throws at the call, as on the raw level.
 */
public final class AsyncQueuePair {
    private final QueuePair qp;
    private final AtomicLong ids = new AtomicLong();

    AsyncQueuePair(QueuePair qp) {
        this.qp = qp;
    }

    public QueuePair queuePair() {
        return qp;
    }

    /** Posts any prepared send WR (not in flight) and returns its future; the WR is set signaled. */
    public CompletableFuture<Completion> post(SendWr wr) {
        CompletableFuture<Completion> f = new CompletableFuture<>();
        wr.signaled();
        wr.listener = c -> complete(f, c);
        try {
            qp.postSend(wr);
        } catch (RuntimeException e) {
            wr.listener = null;
            throw e;
        }
        return f;
    }

    public CompletableFuture<Completion> send(Sge... sges) {
        return post(SendWr.send().id(ids.incrementAndGet()).local(sges));
    }

    /** RDMA Write of {@code local} to byte {@code remoteOffset} of {@code remote}. */
    public CompletableFuture<Completion> write(Sge local, RemoteBuffer remote, long remoteOffset) {
        return post(SendWr.rdmaWrite().id(ids.incrementAndGet()).local(local).remote(remote, remoteOffset));
    }

    /** RDMA Read of {@code local.length()} bytes from byte {@code remoteOffset} of {@code remote} into {@code local}. */
    public CompletableFuture<Completion> read(Sge local, RemoteBuffer remote, long remoteOffset) {
        return post(SendWr.rdmaRead().id(ids.incrementAndGet()).local(local).remote(remote, remoteOffset));
    }

    /** Atomic fetch-and-add; the original value lands in the 8-byte {@code result}. */
    public CompletableFuture<Completion> fetchAdd(Sge result, RemoteBuffer remote, long remoteOffset, long addend) {
        return post(SendWr.fetchAdd(addend).id(ids.incrementAndGet()).local(result).remote(remote, remoteOffset));
    }

    /** Atomic compare-and-swap; the original value lands in the 8-byte {@code result}. */
    public CompletableFuture<Completion> compareSwap(Sge result, RemoteBuffer remote, long remoteOffset, long compare, long swap) {
        return post(SendWr.compareSwap(compare, swap).id(ids.incrementAndGet()).local(result).remote(remote, remoteOffset));
    }

    /** Posts a receive; the future completes when a message landed in it. */
    public CompletableFuture<Completion> receive(Sge... sges) {
        CompletableFuture<Completion> f = new CompletableFuture<>();
        RecvWr wr = RecvWr.of(ids.incrementAndGet(), sges);
        wr.listener = c -> complete(f, c);
        qp.postRecv(wr);
        return f;
    }

    private static void complete(CompletableFuture<Completion> f, Completion c) {
        if (c.isOk()) {
            f.complete(c);
        } else {
            f.completeExceptionally(new WorkCompletionException(c));
        }
    }
}
