package io.jrnic.verbs.spi;

import io.jrnic.verbs.QpTrigger;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.Stats;

/** A provider's queue pair. */
public interface QpSpi {
    /**
     * Accepts {@code count} validated send WRs (QP in RTS, SQ capacity checked, SGEs checked) for
     * execution in order. Must not block on the network and must not throw for validated WRs.
     * The array is reused by the API after return; the WR objects are lent until retired.
     */
    void postSend(SendWr[] wrs, int offset, int count);

    /** Accepts validated receive WRs (QP in IDLE or RTS) onto the RQ, in order. Same lending rules. */
    void postRecv(RecvWr[] wrs, int offset, int count);

    /**
     * A consumer trigger the API already applied: MODIFY_TO_ERROR (abort the stream: send a
     * Terminate if connected, close, then retire and flushAll) or RESET_TO_IDLE (forget the stream).
     */
    void modify(QpTrigger consumerTrigger);

    /** Destroy; the QP is already in ERROR (API applied MODIFY_TO_ERROR) or IDLE. */
    void close();

    /**
     * Progress on the calling thread, which polls a CQ of this QP and found it empty while the peer may still send
     * what completes there (a Read's response, a message for a posted receive), or which waits for memory the peer
     * writes ({@code CompletionQueue.progress()}): a software provider may read and process what the stream holds
     * here instead of waiting for its own threads. Must not block; true when anything was done (a completion may
     * now be queued).
     */
    default boolean progress() {
        return false;
    }

    /**
     * A consumer armed a CQ of this QP ({@code requestNotify}): it stops polling and will wait for a notification.
     * A provider that let polling threads do its own threads' work gives it back here. Must not block.
     */
    default void pollingStops() {
    }

    /**
     * How a consumer thread blocked on a CQ of this QP may wait on the QP's input itself ({@link InputWaiter}), or
     * null (the default): the API then waits on the CQ. Any thread; must not block.
     */
    default InputWaiter inputWaiter() {
        return null;
    }

    /** A snapshot of the QP's counters (any thread; must not block the data path). */
    default Stats stats() {
        return Stats.EMPTY;
    }
}
