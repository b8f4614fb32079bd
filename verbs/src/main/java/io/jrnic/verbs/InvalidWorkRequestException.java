package io.jrnic.verbs;

/**
 * A work request in a batch failed validation; nothing of the batch was posted.
 * {@link #index()} is its position in the batch, {@link #reason()} the broken rule.
 */
public final class InvalidWorkRequestException extends VerbsException {

    /** The rule a work request broke. */
    public enum Reason {
        /** More SGEs than the QP's maxSge (maxRecvSge for receives, device maxReadSge for RDMA Read). */
        TOO_MANY_SGES,
        /** An SGE's range is outside its region (region shrank or was re-registered since). */
        SGE_OUT_OF_BOUNDS,
        /** An SGE's region is closed (deregistered) or not valid (fast-reg region not registered, invalidated). */
        REGION_INVALID,
        /** An SGE's region (or the fast-reg/bind target) belongs to another protection domain than the QP. */
        PD_MISMATCH,
        /** The local RNIC must write an SGE's region (receive, RDMA Read sink, atomic result) but it lacks LOCAL_WRITE. */
        MISSING_LOCAL_WRITE,
        /** Inline requested for an opcode that cannot carry it, or total length above the QP's maxInline. */
        INLINE_TOO_LARGE,
        /** Total length above the device's maxMessageSize. */
        MESSAGE_TOO_LARGE,
        /** RDMA Write/Read or atomic without {@code remote(...)}. */
        MISSING_REMOTE,
        /** Send with Invalidate or Local Invalidate without {@code invalidate(...)}. */
        MISSING_INVALIDATE_STAG,
        /** Atomic: not exactly one SGE of 8 bytes, or remote TO not 8-byte aligned (RFC 7306). */
        BAD_ATOMIC,
        /** Opcode that takes no SGEs was given some, or BIND_MW without exactly one. */
        UNEXPECTED_SGES,
        /** Device lacks the capability (atomics, immediate data, memory windows, fast registration). */
        UNSUPPORTED_OPCODE,
        /** REG_MR target not from allocateFastRegMr, or memory longer than its maxLength, or LOCAL_WRITE on read-only memory. */
        BAD_FAST_REG,
        /** BIND_MW: window not type 2, region lacks MW_BIND, window rights need LOCAL_WRITE the region lacks, or window closed. */
        BAD_BIND,
        /** postRecv on a QP created with an SRQ (post to the SRQ instead). */
        QP_USES_SRQ
    }

    private final int index;
    private final Reason reason;

    public InvalidWorkRequestException(int index, Reason reason, String detail) {
        super("work request #" + index + ": " + reason + " (" + detail + ")");
        this.index = index;
        this.reason = reason;
    }

    public int index() {
        return index;
    }

    public Reason reason() {
        return reason;
    }
}
