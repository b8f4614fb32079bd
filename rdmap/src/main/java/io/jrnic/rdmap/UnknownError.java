package io.jrnic.rdmap;

import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;

/**
 * A (layer, etype, code) triple that no error enum of this build names: a code outside the
 * reference table, or a layer value other than 0..2 ({@link #layer()} is then null and
 * {@link #rawLayer()} holds the 4-bit value).
 */
public record UnknownError(int rawLayer, int errorType, int errorCode, String description) implements IwarpError {

    public UnknownError {
        if ((rawLayer & ~0xF) != 0 || (errorType & ~0xF) != 0 || (errorCode & ~0xFF) != 0) {
            throw new IllegalArgumentException("layer " + rawLayer + ", etype " + errorType + ", code " + errorCode);
        }
    }

    public UnknownError(int rawLayer, int errorType, int errorCode) {
        this(rawLayer, errorType, errorCode, "unknown error");
    }

    @Override
    public ErrorLayer layer() {
        return rawLayer <= ErrorLayer.LLP.wireValue() ? ErrorLayer.fromWire(rawLayer) : null;
    }
}
