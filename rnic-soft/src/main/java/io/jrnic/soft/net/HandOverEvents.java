package io.jrnic.soft.net;

import io.jrnic.soft.mpa.ConnectionEvents;

/** Outcome of a stream hand-over: the connection events, plus the responder's MPA Request to answer. */
public interface HandOverEvents extends ConnectionEvents {
    /** Responder: a valid Request arrived; answer with exactly one {@code accept} or {@code reject}. */
    void request(PendingRequest request);
}
