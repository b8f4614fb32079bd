package io.jrnic.ddp;

/**
 * Where an accepted untagged segment goes: a mutable, reusable result filled by
 * {@link UntaggedReceiver#accept}. Valid until the next call that fills it.
 */
public final class UntaggedPlacement {
    int queueNumber;
    long msn;
    long bufferId;
    long bufferOffset;
    int length;
    boolean messageComplete;

    public int queueNumber() {
        return queueNumber;
    }

    public long msn() {
        return msn;
    }

    /** The id the consumer gave the buffer in {@link UntaggedReceiver#postBuffer}. */
    public long bufferId() {
        return bufferId;
    }

    /** Where in the buffer the segment's payload goes (its MO). */
    public long bufferOffset() {
        return bufferOffset;
    }

    /** Payload bytes to place. */
    public int length() {
        return length;
    }

    /** True if this segment carried L: its message is complete (see {@link UntaggedReceiver#pollCompletion}). */
    public boolean messageComplete() {
        return messageComplete;
    }

    @Override
    public String toString() {
        return "UntaggedPlacement{QN=" + queueNumber + ", MSN=" + msn + ", buffer=" + bufferId + ", offset="
                + bufferOffset + ", length=" + length + ", complete=" + messageComplete + '}';
    }
}
