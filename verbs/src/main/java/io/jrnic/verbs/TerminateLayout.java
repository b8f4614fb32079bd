package io.jrnic.verbs;

/**
 * How a connection reads the Terminate Control field of the Terminates it receives (RFC 5040
 * section 4.8). Terminates are always sent in the RFC layout.
 */
public enum TerminateLayout {
    /** RFC 5040 section 4.8: byte 0 = Layer &lt;&lt; 4 | EType, flags M 0x80, D 0x40, R 0x20. */
    RFC,
    /**
     * Linux siw's reading of its C bitfields on little-endian hosts: Layer in the low nibble, EType in
     * the high one, flags M 0x01, D 0x02, R 0x04 (trailing bytes tolerated).
     */
    SIW,
    /**
     * Accept either: the RFC reading when it gives a well-formed Terminate with a known error,
     * else siw's; the one that matched is reported in {@link TerminateInfo#layout()}.
     */
    EITHER
}
