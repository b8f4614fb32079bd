package io.jrnic.conform;

/**
 * What the target did after the case's injection (or during set-up).
 *
 * @param layout for a Terminate, the control-word layout that decoded it: {@code RFC} or {@code SIW}
 *               (the little-endian bitfield layout Linux siw emits)
 * @param otherLayout for a Terminate that also decodes in the other layout, that reading's {layer, type,
 *               code} (siw's RDMAP/2/0x05 is byte 0x20, which the RFC layout reads as LLP/0/0x05): null otherwise
 */
public record Observation(Kind kind, int layer, int type, int code, String layout, String detail, int[] otherLayout) {
    /** Without another reading of the Terminate. */
    public Observation(Kind kind, int layer, int type, int code, String layout, String detail) {
        this(kind, layer, type, code, layout, detail, null);
    }

    public enum Kind {
        /** A Terminate arrived. */
        TERMINATE,
        /** An MPA Reply with R set (or, in the responder role, the client closed after our Reply). */
        REJECTED,
        /** The target closed the stream (FIN) with no Terminate. */
        CLOSED,
        /** The target reset the stream. */
        RESET,
        /** Nothing within the case's timeout, the stream still open. */
        SILENT,
        /** The target carried on with a valid exchange (the next rping step arrived). */
        PROCEEDED,
        /** The target itself broke a rule while answering (its Reply, its markers or CRCs, a Read beyond
         *  our IRD): always a failure. */
        VIOLATED,
        /** The case does not apply to what the target negotiated. */
        NOT_APPLICABLE,
        /** The target refused the connection or never connected (responder role). */
        UNREACHABLE
    }

    public static Observation of(Kind kind, String detail) {
        return new Observation(kind, -1, -1, -1, null, detail);
    }

    public static Observation terminate(int layer, int type, int code, String layout, String detail) {
        return new Observation(Kind.TERMINATE, layer, type, code, layout, detail);
    }

    /** A short rendering: {@code TERMINATE 1/2/0x03 (RFC)} or {@code CLOSED}. */
    public String brief() {
        if (kind == Kind.TERMINATE) {
            return String.format("TERMINATE %s (%s)", triple(layer, type, code), layout);
        }
        return kind.name();
    }

    /** {@code layer/type/0xCC} with the layer named: {@code DDP/2/0x03}. */
    public static String triple(int layer, int type, int code) {
        String l = switch (layer) {
            case 0 -> "RDMAP";
            case 1 -> "DDP";
            case 2 -> "LLP";
            default -> "layer" + layer;
        };
        return String.format("%s/%d/0x%02X", l, type, code);
    }
}
