package io.jrnic.conform;

/** Which side of the MPA connection jrnic plays in a case; the target plays the other. */
public enum Role {
    /** jrnic connects and sends the MPA Request; the target is a server ({@code rping -s}). */
    INITIATOR,
    /** jrnic listens and sends the MPA Reply; the target is a client ({@code rping -c}). */
    RESPONDER
}
