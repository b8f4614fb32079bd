package io.jrnic.verbs.spi;

/**
 * One wake-up for a consumer blocked on a completion (spec-notes/engine.md, "Blocking waiters"): a provider that can
 * let the blocked thread wait on the QP's input itself offers this, so the thread that made the completion is the
 * thread that waited for it (the kernel wakes the consumer, which reads and completes; the provider's own thread is
 * not woken in between). The API uses it for at most one thread at a time per CQ, only when the CQ (or the
 * completion channel's sole CQ) serves one QP; any other wait is the CQ's or the channel's own.
 */
public interface InputWaiter {
    /**
     * Blocks the calling thread until the QP's stream has input, {@link #wake} is called, or about {@code nanos}
     * pass (at most {@link #LONGEST_WAIT_NANOS}, so that the caller sees an interrupt or a deadline). The caller then
     * lets the provider progress ({@link QpSpi#progress}) and polls. False when the provider cannot wait now (another
     * thread waits, the thread is virtual, the stream is not one it can wait on): the caller waits its own way.
     */
    boolean await(long nanos);

    /** Any thread: ends the current {@link #await} early (a completion was queued, the CQ closed). Never blocks. */
    void wake();

    /** The longest single wait: an interrupt or a closed CQ the waiter is not told of is seen within it. */
    long LONGEST_WAIT_NANOS = 50_000_000L;
}
