package io.jrnic.soft.mpa;

/** Why a connection attempt failed; names equal the verbs connection-manager event types. */
public enum CmFailure {
    /** No route, connection refused, or the stream reset before MPA started. */
    UNREACHABLE,
    /** TCP connect timer, or MPA Reply/Request timer. */
    TIMEOUT,
    /** Malformed or incompatible MPA frame, IRD/ORD or RTR mismatch, stream closed during set-up. */
    CONNECT_ERROR
}
