package io.jrnic.verbs;

/** Peer-to-peer "ready to receive" message types (RFC 6581 section 5; IRD/ORD word flags). */
public enum RtrType {
    /** Zero-length Send (IRD word bit 14). Linux siw does not support it. */
    SEND,
    /** Zero-length RDMA Write (ORD word bit 15). siw's choice when offered. */
    WRITE,
    /** Zero-length RDMA Read (ORD word bit 14). */
    READ
}
