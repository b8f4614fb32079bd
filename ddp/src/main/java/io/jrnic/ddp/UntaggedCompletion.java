package io.jrnic.ddp;

/** A completed (or flushed) untagged message, filled by {@link UntaggedReceiver}; reusable. */
public final class UntaggedCompletion {
    int queueNumber;
    long msn;
    long bufferId;
    long messageLength;
    boolean complete;

    public int queueNumber() {
        return queueNumber;
    }

    public long msn() {
        return msn;
    }

    public long bufferId() {
        return bufferId;
    }

    /** Bytes received: the message length when complete, the bytes placed so far when flushed. */
    public long messageLength() {
        return messageLength;
    }

    /** False for a buffer returned by {@link UntaggedReceiver#pollFlush} before its message completed. */
    public boolean complete() {
        return complete;
    }

    @Override
    public String toString() {
        return "UntaggedCompletion{QN=" + queueNumber + ", MSN=" + msn + ", buffer=" + bufferId + ", length="
                + messageLength + ", complete=" + complete + '}';
    }
}
