package io.jrnic.mpa;

/** The outcome of an FPDU's CRC check (RFC 5044 section 4.1). */
public enum CrcCheck {
    /** CRC negotiated and the received value matched (under one of the accepted readings). */
    GOOD,
    /** CRC negotiated and no reading matched: only delivered with continueAfterError. */
    BAD,
    /** CRC not negotiated: the field was not checked. */
    OFF
}
