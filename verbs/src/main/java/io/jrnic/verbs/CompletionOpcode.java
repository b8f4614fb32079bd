package io.jrnic.verbs;

/** What a completion reports: the send-queue operation, or which kind of message consumed a receive. */
public enum CompletionOpcode {
    SEND, RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE, RDMA_READ, ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP, IMMEDIATE_DATA,
    REG_MR, LOCAL_INVALIDATE, BIND_MW,
    /** A Send (any of the four Send opcodes) was received into a posted receive. */
    RECV,
    /** An RFC 7306 Immediate Data message consumed a posted receive; the 8 bytes are in {@link Completion#immediateData()}. */
    RECV_IMMEDIATE;

    /** True for receive-queue completions. */
    public boolean isReceive() {
        return this == RECV || this == RECV_IMMEDIATE;
    }
}
