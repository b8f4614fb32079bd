package io.jrnic.soft.engine;

/** Send-queue operations the engine executes; names equal {@code io.jrnic.verbs.WrOpcode}. */
public enum SqOpcode {
    SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE, RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE,
    RDMA_READ, ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP, IMMEDIATE_DATA, REG_MR, LOCAL_INVALIDATE, BIND_MW;

    boolean isSend() {
        return this == SEND || this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    boolean isAtomic() {
        return this == ATOMIC_FETCH_ADD || this == ATOMIC_COMPARE_SWAP;
    }

    /** Operations that wait for a response (they count against ORD, RFC 5040 section 6.1). */
    boolean isReadLike() {
        return this == RDMA_READ || isAtomic();
    }
}
