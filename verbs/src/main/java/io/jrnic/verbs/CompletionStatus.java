package io.jrnic.verbs;

/**
 * Outcome of a work request (verbs "completion status"). Errors produced by the wire are values
 * here, with {@link Completion#terminate()} set when a Terminate caused them.
 */
public enum CompletionStatus {
    /** Completed. */
    SUCCESS,
    /** An incoming untagged message was longer than the posted receive's SGEs (Terminate DDP/2/0x05 sent). */
    LOCAL_LENGTH_ERROR,
    /** Internal inconsistency of the local QP (e.g. an inline/fast-register request the provider could not execute). */
    LOCAL_QP_OPERATION_ERROR,
    /** A local STag/region check failed while executing the WR (region invalidated or deregistered after posting,
     *  fast-register/bind/invalidate target in the wrong state). */
    LOCAL_PROTECTION_ERROR,
    /** A memory-window bind failed (region lacks MW_BIND, range outside the region, window in use). */
    MW_BIND_ERROR,
    /** The peer refused an STag/TO/length/access check (Terminate RDMAP/1 or DDP/1 received). */
    REMOTE_ACCESS_ERROR,
    /** The peer could not perform the operation (Terminate RDMAP/2, RDMAP/0 or DDP/0 received). */
    REMOTE_OPERATION_ERROR,
    /** The peer found the request malformed: no receive posted, receive too small, bad QN/MSN/MO (Terminate DDP/2 received). */
    REMOTE_INVALID_REQUEST,
    /** The LLP failed: connection reset/lost, CRC error, MPA error (Terminate LLP received or no Terminate at all). */
    TRANSPORT_ERROR,
    /** Not executed because the QP went to ERROR (or was closed) before or while it ran. Always reported, signaled or not. */
    WR_FLUSH_ERROR,
    /** Catastrophic local error of the device. */
    FATAL_ERROR;

    public boolean isOk() {
        return this == SUCCESS;
    }
}
