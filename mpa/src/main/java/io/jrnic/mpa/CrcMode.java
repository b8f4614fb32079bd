package io.jrnic.mpa;

/**
 * This side's CRC wish (RFC 5044 section 7.1.2: CRCs are used in both directions when either
 * frame has C set).
 */
public enum CrcMode {
    /** Send C = 0; CRCs are still used if the peer sets C (the RFC gives no way to refuse). */
    OFF,
    /** Send C = 1: CRCs are used. */
    WANTED,
    /**
     * Send C = 1, and as initiator fail with CRC_NOT_CONFIRMED (LLP 0x04) when the Reply has
     * C = 0 (a responder that does not confirm CRC checking). As responder the same as WANTED.
     */
    REQUIRED;

    boolean flag() {
        return this != OFF;
    }
}
