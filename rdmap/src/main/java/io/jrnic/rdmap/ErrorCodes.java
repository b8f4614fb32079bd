package io.jrnic.rdmap;

import io.jrnic.ddp.DdpError;
import io.jrnic.mpa.ErrorLayer;
import io.jrnic.mpa.IwarpError;

/**
 * The whole Terminate error table (RFC 5040 section 7.2, RFC 5041 section 7.2, RFC 5044 section 8
 * and RFC 6581 section 7; registries in RFC 6580) behind one lookup.
 */
public final class ErrorCodes {
    /** LLP (MPA) rows, etype 0, codes 0x01..0x07, used until {@code io.jrnic.mpa.LlpError} is on the class path. */
    private static final String[] LLP_DESCRIPTIONS = {
        null,
        "TCP connection closed, terminated or lost",
        "MPA CRC error",
        "MPA marker and ULPDU_Length field mismatch",
        "invalid MPA Request or Reply frame",
        "local catastrophic error",
        "insufficient IRD resources",
        "no matching RTR model",
    };

    // TODO(LlpError): once io.jrnic.mpa.LlpError is merged into this tree, reference it directly.
    private static final IwarpError[] LLP_ENUM = loadLlpEnum();

    private ErrorCodes() {
    }

    /**
     * The error for a (layer, etype, code) triple: a {@link RdmapError}, {@link DdpError},
     * {@code io.jrnic.mpa.LlpError} (when present; else an {@link UnknownError} carrying the LLP
     * row's description), or an {@link UnknownError} for anything outside the table. Never null.
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
        } else if (layer == ErrorLayer.LLP.wireValue() && errorType == 0
                && errorCode >= 1 && errorCode < LLP_DESCRIPTIONS.length) {
            for (IwarpError e : LLP_ENUM) {
                if (e.errorType() == 0 && e.errorCode() == errorCode) {
                    return e;
                }
            }
            return new UnknownError(layer, errorType, errorCode, LLP_DESCRIPTIONS[errorCode]);
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
        return layer == ErrorLayer.LLP.wireValue() && errorType == 0
                && errorCode >= 1 && errorCode < LLP_DESCRIPTIONS.length;
    }

    private static IwarpError[] loadLlpEnum() {
        try {
            Object[] constants = Class.forName("io.jrnic.mpa.LlpError").getEnumConstants();
            if (constants != null) {
                IwarpError[] out = new IwarpError[constants.length];
                for (int i = 0; i < constants.length; i++) {
                    out[i] = (IwarpError) constants[i];
                }
                return out;
            }
        } catch (ClassNotFoundException | ClassCastException e) {
            // not merged yet: fall back to the descriptions above
        }
        return new IwarpError[0];
    }
}
