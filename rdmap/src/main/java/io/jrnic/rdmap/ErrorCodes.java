package io.jrnic.rdmap;

import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;
import io.jrnic.mpa.LlpError;

/**
 * The whole Terminate error table (RFC 5040 section 7.2, RFC 5041 section 7.2, RFC 5044 section 8
 * and RFC 6581 section 7; registries in RFC 6580) behind one lookup.
 */
public final class ErrorCodes {
    private ErrorCodes() {
    }

    /**
     * The error for a (layer, etype, code) triple: a {@link RdmapError}, {@link DdpError},
     * {@link LlpError}, or an {@link UnknownError} for anything outside the table. Never null.
     *
     * @throws IllegalArgumentException if layer or etype exceed 4 bits or code exceeds 8 bits
     */
    public static IwarpError lookup(int layer, int errorType, int errorCode) {
        if ((layer & ~0xF) != 0 || (errorType & ~0xF) != 0 || (errorCode & ~0xFF) != 0) {
            throw new IllegalArgumentException("layer " + layer + ", etype " + errorType + ", code " + errorCode);
        }
        IwarpError known = null;
        if (layer == ErrorLayer.RDMAP.wireValue()) {
            known = RdmapError.of(errorType, errorCode);
        } else if (layer == ErrorLayer.DDP.wireValue()) {
            known = DdpError.of(errorType, errorCode);
        } else if (isLlpRow(layer, errorType, errorCode)) {
            known = LlpError.fromCode(errorCode);
        }
        return known != null ? known : new UnknownError(layer, errorType, errorCode);
    }

    /** True if the triple is a row of the reference table. */
    public static boolean isKnown(int layer, int errorType, int errorCode) {
        if (layer == ErrorLayer.RDMAP.wireValue()) {
            return RdmapError.of(errorType, errorCode) != null;
        }
        if (layer == ErrorLayer.DDP.wireValue()) {
            return DdpError.of(errorType, errorCode) != null;
        }
        return isLlpRow(layer, errorType, errorCode);
    }

    private static boolean isLlpRow(int layer, int errorType, int errorCode) {
        if (layer != ErrorLayer.LLP.wireValue() || errorType != 0) {
            return false;
        }
        for (LlpError e : LlpError.values()) {
            if (e.errorCode() == errorCode) {
                return true;
            }
        }
        return false;
    }
}
