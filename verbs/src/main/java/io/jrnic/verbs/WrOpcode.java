package io.jrnic.verbs;

/**
 * Send-queue operations (RFC 5040 section 4, RFC 7306 sections 4-5, RDMAC verbs for the local ones).
 * Which SendWr fields each one reads is documented on {@link SendWr}.
 */
public enum WrOpcode {
    /** RDMAP Send (0x3); with {@link SendWr#solicited()} Send with Solicited Event (0x5). */
    SEND(CompletionOpcode.SEND),
    /** Send with Invalidate (0x4): the peer invalidates {@link SendWr#invalidateStag()} before completing the receive. */
    SEND_WITH_INVALIDATE(CompletionOpcode.SEND),
    /** Send with Solicited Event (0x5). */
    SEND_WITH_SE(CompletionOpcode.SEND),
    /** Send with SE and Invalidate (0x6). */
    SEND_WITH_SE_AND_INVALIDATE(CompletionOpcode.SEND),
    /** RDMA Write (0x0) to (remote STag, TO). */
    RDMA_WRITE(CompletionOpcode.RDMA_WRITE),
    /**
     * RDMA Write followed, on the same stream and in order, by an RFC 7306 Immediate Data message
     * (0x8, or 0x9 when solicited) carrying {@link SendWr#immediateData()}. iWARP has no "write with
     * immediate" message: this is two wire messages, one work request, one send completion after both.
     * The peer sees a RECV_IMMEDIATE completion on a posted receive after the written data is placed.
     */
    RDMA_WRITE_WITH_IMMEDIATE(CompletionOpcode.RDMA_WRITE_WITH_IMMEDIATE),
    /** RDMA Read Request (0x1): the peer's (STag, TO) is the source, the local SGEs the sink (need LOCAL_WRITE). */
    RDMA_READ(CompletionOpcode.RDMA_READ),
    /** RFC 7306 Atomic Fetch and Add on 8 remote bytes; the original value lands in the single 8-byte local SGE. */
    ATOMIC_FETCH_ADD(CompletionOpcode.ATOMIC_FETCH_ADD),
    /** RFC 7306 Atomic Compare and Swap on 8 remote bytes; the original value lands in the single 8-byte local SGE. */
    ATOMIC_COMPARE_SWAP(CompletionOpcode.ATOMIC_COMPARE_SWAP),
    /** RFC 7306 Immediate Data (0x8, 0x9 when solicited): 8 bytes delivered in the peer's receive completion, no SGEs. */
    IMMEDIATE_DATA(CompletionOpcode.IMMEDIATE_DATA),
    /** Fast registration: map {@link SendWr#fastRegMemory()} into a region from {@link ProtectionDomain#allocateFastRegMr}. Local, in SQ order. */
    REG_MR(CompletionOpcode.REG_MR),
    /** Invalidate a local STag (region or type 2 window). Local, in SQ order. */
    LOCAL_INVALIDATE(CompletionOpcode.LOCAL_INVALIDATE),
    /** Bind a type 2 memory window. Local, in SQ order. */
    BIND_MW(CompletionOpcode.BIND_MW);

    private final CompletionOpcode completion;

    WrOpcode(CompletionOpcode completion) {
        this.completion = completion;
    }

    /** The opcode its completion reports. */
    public CompletionOpcode completionOpcode() {
        return completion;
    }

    /** Opcodes that need a remote STag and TO. */
    public boolean needsRemote() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMMEDIATE || this == RDMA_READ || isAtomic();
    }

    public boolean isAtomic() {
        return this == ATOMIC_FETCH_ADD || this == ATOMIC_COMPARE_SWAP;
    }

    public boolean isSend() {
        return this == SEND || this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE || this == SEND_WITH_SE_AND_INVALIDATE;
    }

    /** Opcodes handled by the local RNIC only (no wire message). */
    public boolean isLocal() {
        return this == REG_MR || this == LOCAL_INVALIDATE || this == BIND_MW;
    }

    /** Opcodes that complete when the peer's response arrives (RDMA Read, the atomics). */
    public boolean awaitsResponse() {
        return this == RDMA_READ || isAtomic();
    }

    /** Opcodes whose SGEs the local RNIC writes (so their regions need LOCAL_WRITE). */
    public boolean writesLocalMemory() {
        return this == RDMA_READ || isAtomic();
    }

    /** Opcodes that may carry inline data. */
    public boolean allowsInline() {
        return isSend() || this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMMEDIATE;
    }

    /** Opcodes that carry {@link SendWr#invalidateStag()}. */
    public boolean invalidates() {
        return this == SEND_WITH_INVALIDATE || this == SEND_WITH_SE_AND_INVALIDATE || this == LOCAL_INVALIDATE;
    }
}
