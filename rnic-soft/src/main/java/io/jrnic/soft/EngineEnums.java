package io.jrnic.soft;

import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.soft.engine.SqOpcode;
import io.jrnic.soft.engine.Status;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.TerminateLayout;
import io.jrnic.verbs.WrOpcode;

/**
 * The explicit tables between the verbs enums and the engine's: switch expressions without a default, so
 * a constant added on either side fails the build here (and {@code EngineEnumsTest} checks every value).
 */
final class EngineEnums {
    private EngineEnums() {
    }

    /** The connection's Terminate reading (verbs) as the decoder's mode. */
    static TerminateDecoder.Mode terminateMode(TerminateLayout l) {
        return switch (l) {
            case RFC -> TerminateDecoder.Mode.STRICT;
            case SIW -> TerminateDecoder.Mode.SIW_QUIRK;
            case EITHER -> TerminateDecoder.Mode.EITHER;
        };
    }

    /** The layout a Terminate was read in (STRICT or SIW_QUIRK) for the TerminateInfo. */
    static TerminateLayout terminateLayout(TerminateDecoder.Mode m) {
        return switch (m) {
            case STRICT, EITHER -> TerminateLayout.RFC;
            case SIW_QUIRK -> TerminateLayout.SIW;
        };
    }

    /** A set-up failure as the connection manager's event. */
    static io.jrnic.verbs.CmEventType cmEvent(io.jrnic.soft.mpa.CmFailure f) {
        return switch (f) {
            case UNREACHABLE -> io.jrnic.verbs.CmEventType.UNREACHABLE;
            case TIMEOUT -> io.jrnic.verbs.CmEventType.TIMEOUT;
            case CONNECT_ERROR -> io.jrnic.verbs.CmEventType.CONNECT_ERROR;
        };
    }

    /** The API's RTR type as MPA's (RFC 6581 section 5). */
    static io.jrnic.mpa.RtrType rtr(io.jrnic.verbs.RtrType t) {
        return switch (t) {
            case SEND -> io.jrnic.mpa.RtrType.SEND;
            case WRITE -> io.jrnic.mpa.RtrType.WRITE;
            case READ -> io.jrnic.mpa.RtrType.READ;
        };
    }

    /** MPA's RTR type as the API's; null for NONE (no RTR). */
    static io.jrnic.verbs.RtrType rtr(io.jrnic.mpa.RtrType t) {
        return switch (t) {
            case NONE -> null;
            case SEND -> io.jrnic.verbs.RtrType.SEND;
            case WRITE -> io.jrnic.verbs.RtrType.WRITE;
            case READ -> io.jrnic.verbs.RtrType.READ;
        };
    }

    static SqOpcode opcode(WrOpcode op) {
        return switch (op) {
            case SEND -> SqOpcode.SEND;
            case SEND_WITH_INVALIDATE -> SqOpcode.SEND_WITH_INVALIDATE;
            case SEND_WITH_SE -> SqOpcode.SEND_WITH_SE;
            case SEND_WITH_SE_AND_INVALIDATE -> SqOpcode.SEND_WITH_SE_AND_INVALIDATE;
            case RDMA_WRITE -> SqOpcode.RDMA_WRITE;
            case RDMA_WRITE_WITH_IMMEDIATE -> SqOpcode.RDMA_WRITE_WITH_IMMEDIATE;
            case RDMA_READ -> SqOpcode.RDMA_READ;
            case ATOMIC_FETCH_ADD -> SqOpcode.ATOMIC_FETCH_ADD;
            case ATOMIC_COMPARE_SWAP -> SqOpcode.ATOMIC_COMPARE_SWAP;
            case IMMEDIATE_DATA -> SqOpcode.IMMEDIATE_DATA;
            case REG_MR -> SqOpcode.REG_MR;
            case LOCAL_INVALIDATE -> SqOpcode.LOCAL_INVALIDATE;
            case BIND_MW -> SqOpcode.BIND_MW;
        };
    }

    static CompletionStatus status(Status s) {
        return switch (s) {
            case SUCCESS -> CompletionStatus.SUCCESS;
            case LOCAL_LENGTH_ERROR -> CompletionStatus.LOCAL_LENGTH_ERROR;
            case LOCAL_QP_OPERATION_ERROR -> CompletionStatus.LOCAL_QP_OPERATION_ERROR;
            case LOCAL_PROTECTION_ERROR -> CompletionStatus.LOCAL_PROTECTION_ERROR;
            case MW_BIND_ERROR -> CompletionStatus.MW_BIND_ERROR;
            case REMOTE_ACCESS_ERROR -> CompletionStatus.REMOTE_ACCESS_ERROR;
            case REMOTE_OPERATION_ERROR -> CompletionStatus.REMOTE_OPERATION_ERROR;
            case REMOTE_INVALID_REQUEST -> CompletionStatus.REMOTE_INVALID_REQUEST;
            case TRANSPORT_ERROR -> CompletionStatus.TRANSPORT_ERROR;
            case WR_FLUSH_ERROR -> CompletionStatus.WR_FLUSH_ERROR;
        };
    }
}
