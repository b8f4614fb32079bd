package io.jrnic.mpa;

/**
 * The layer field of a Terminate message (RFC 5040 section 4.8; registry in RFC 6580).
 * Declared here, in the lowest layer, so that every layer can name its own error codes.
 */
public enum ErrorLayer {
    RDMAP(0),
    DDP(1),
    LLP(2);

    private final int wireValue;

    ErrorLayer(int wireValue) {
        this.wireValue = wireValue;
    }

    /** The 4-bit value carried in the Terminate control word. */
    public int wireValue() {
        return wireValue;
    }

    public static ErrorLayer fromWire(int value) {
        for (ErrorLayer l : values()) {
            if (l.wireValue == value) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown Terminate layer " + value);
    }
}
