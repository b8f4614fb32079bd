package io.jrnic.mpa;

/**
 * One row of the iWARP error-code table: (layer, error type, error code), as carried in a
 * Terminate message (RFC 5040 section 4.8, RFC 6580). Each layer's enum implements this:
 * {@code LlpError} (MPA), {@code DdpError}, {@code RdmapError}.
 */
public interface IwarpError {
    ErrorLayer layer();

    /** The 4-bit EType. */
    int errorType();

    /** The 8-bit error code. */
    int errorCode();

    /** Human-readable meaning, in the RFC's words. */
    String description();
}
