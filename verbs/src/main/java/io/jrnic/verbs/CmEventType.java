package io.jrnic.verbs;

/** Connection-manager events (rdma_cm event types, iWARP subset). */
public enum CmEventType {
    /** MPA exchange done, QP in RTS. */
    ESTABLISHED,
    /** The responder answered with R set; {@link CmEvent#privateData()} has its reason. */
    REJECTED,
    /** No TCP connection (refused, no route, reset before MPA). */
    UNREACHABLE,
    /** MPA protocol failure (malformed frame, IRD/ORD or RTR mismatch, revision refused). */
    CONNECT_ERROR,
    /** TCP connect or MPA timer expired. */
    TIMEOUT,
    /** An established connection ended. */
    DISCONNECTED
}
