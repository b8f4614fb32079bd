package io.jrnic.interop.decode;

/** Direction of an MPA stream: Initiator to Responder, or back. */
public enum Direction {
    I2R, R2I;

    public String label() {
        return this == I2R ? "i2r" : "r2i";
    }
}
