package io.jrnic.mpa;

/**
 * The "ready to receive" message of peer-to-peer mode (RFC 6581 section 5): a zero-length
 * SEND, RDMA WRITE or RDMA READ sent by the initiator as its first FPDU. NONE when P2P is
 * not negotiated.
 */
public enum RtrType {
    NONE,
    SEND,
    WRITE,
    READ
}
