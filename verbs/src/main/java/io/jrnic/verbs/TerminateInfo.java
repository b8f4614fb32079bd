package io.jrnic.verbs;

/**
 * The (Layer, EType, ErrorCode) triple of an RDMAP Terminate message (RFC 5040 section 4.8, codes
 * registered by RFC 6580), provider-neutral: plain ints, no dependency on the protocol modules.
 * Attached to error completions and async events caused by a Terminate sent or received.
 *
 * @param layer     0 RDMAP, 1 DDP, 2 LLP (MPA)
 * @param errorType the 4-bit EType
 * @param errorCode the 8-bit ErrorCode
 * @param received  true when the peer sent it, false when this side sent it
 * @param layout    the control-field layout it was read in: {@link TerminateLayout#RFC} (always for a
 *                  Terminate this side sent) or {@link TerminateLayout#SIW}, never EITHER
 */
public record TerminateInfo(int layer, int errorType, int errorCode, boolean received, TerminateLayout layout) {

    public static final int LAYER_RDMAP = 0;
    public static final int LAYER_DDP = 1;
    public static final int LAYER_LLP = 2;

    public TerminateInfo {
        if (layer < 0 || layer > 15 || errorType < 0 || errorType > 15 || errorCode < 0 || errorCode > 255) {
            throw new IllegalArgumentException("layer/etype are 4 bits, code 8 bits: " + layer + "/" + errorType + "/" + errorCode);
        }
        if (layout == null || layout == TerminateLayout.EITHER) {
            throw new IllegalArgumentException("layout is RFC or SIW: " + layout);
        }
    }

    /** A Terminate in the RFC layout. */
    public TerminateInfo(int layer, int errorType, int errorCode, boolean received) {
        this(layer, errorType, errorCode, received, TerminateLayout.RFC);
    }

    /**
     * The completion status a provider reports for the work request a Terminate is about
     * (RFC 5040 section 4.8 / 6580 registry, mapped to verbs statuses):
     * <ul>
     * <li>RDMAP/1 (remote protection) and DDP/1 (tagged buffer) -> {@link CompletionStatus#REMOTE_ACCESS_ERROR}</li>
     * <li>DDP/2 (untagged buffer: invalid QN, no buffer, MSN range, MO, too long, version) -> {@link CompletionStatus#REMOTE_INVALID_REQUEST}</li>
     * <li>RDMAP/2 (remote operation) and RDMAP/0, DDP/0 (catastrophic at the peer) -> {@link CompletionStatus#REMOTE_OPERATION_ERROR}</li>
     * <li>LLP (MPA: connection lost, CRC, markers, IRD, RTR) -> {@link CompletionStatus#TRANSPORT_ERROR}</li>
     * <li>anything else -> {@link CompletionStatus#REMOTE_OPERATION_ERROR}</li>
     * </ul>
     * For a Terminate this side <em>sent</em> because of a local fault the provider picks a local
     * status instead (e.g. LOCAL_LENGTH_ERROR for DDP/2/0x05 on the receive that overflowed).
     */
    public CompletionStatus toStatus() {
        if (layer == LAYER_LLP) {
            return CompletionStatus.TRANSPORT_ERROR;
        }
        if (errorType == 1 && (layer == LAYER_RDMAP || layer == LAYER_DDP)) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        if (layer == LAYER_DDP && errorType == 2) {
            return CompletionStatus.REMOTE_INVALID_REQUEST;
        }
        return CompletionStatus.REMOTE_OPERATION_ERROR;
    }

    /** "RDMAP", "DDP", "LLP" or the number. */
    public String layerName() {
        return switch (layer) {
            case LAYER_RDMAP -> "RDMAP";
            case LAYER_DDP -> "DDP";
            case LAYER_LLP -> "LLP";
            default -> Integer.toString(layer);
        };
    }

    /**
     * The RFC's name of the code (RFC 5040 7.2, RFC 5041 7.2, RFC 5044 8, RFC 6581 7; registry RFC 6580), e.g.
     * "base or bounds violation" for RDMAP/1/0x01; "unknown error" outside the table. The same words as the
     * protocol modules' error enums (a test in rnic-soft compares every row).
     */
    public String errorName() {
        String n = NAMES.get(key(layer, errorType, errorCode));
        return n != null ? n : "unknown error";
    }

    @Override
    public String toString() {
        return String.format("%s/%d/0x%02x %s%s%s", layerName(), errorType, errorCode, errorName(),
                received ? " (received)" : " (sent)", layout == TerminateLayout.SIW ? " [siw layout]" : "");
    }

    private static int key(int layer, int errorType, int errorCode) {
        return layer << 12 | errorType << 8 | errorCode;
    }

    private static final java.util.Map<Integer, String> NAMES = java.util.Map.ofEntries(
            java.util.Map.entry(key(0, 0, 0x00), "local catastrophic error"),
            java.util.Map.entry(key(0, 1, 0x00), "invalid STag"),
            java.util.Map.entry(key(0, 1, 0x01), "base or bounds violation"),
            java.util.Map.entry(key(0, 1, 0x02), "access rights violation"),
            java.util.Map.entry(key(0, 1, 0x03), "STag not associated with RDMAP stream"),
            java.util.Map.entry(key(0, 1, 0x04), "TO wrap"),
            java.util.Map.entry(key(0, 1, 0x09), "STag cannot be invalidated"),
            java.util.Map.entry(key(0, 1, 0xFF), "unspecified remote protection error"),
            java.util.Map.entry(key(0, 2, 0x05), "invalid RDMAP version"),
            java.util.Map.entry(key(0, 2, 0x06), "unexpected opcode"),
            java.util.Map.entry(key(0, 2, 0x07), "catastrophic error, localized to RDMAP stream"),
            java.util.Map.entry(key(0, 2, 0x08), "catastrophic error, global"),
            java.util.Map.entry(key(0, 2, 0x09), "STag cannot be invalidated"),
            java.util.Map.entry(key(0, 2, 0xFF), "unspecified remote operation error"),
            java.util.Map.entry(key(1, 0, 0x00), "local catastrophic error"),
            java.util.Map.entry(key(1, 1, 0x00), "invalid STag"),
            java.util.Map.entry(key(1, 1, 0x01), "base or bounds violation"),
            java.util.Map.entry(key(1, 1, 0x02), "STag not associated with DDP stream"),
            java.util.Map.entry(key(1, 1, 0x03), "TO wrap"),
            java.util.Map.entry(key(1, 1, 0x04), "invalid DDP version"),
            java.util.Map.entry(key(1, 2, 0x01), "invalid QN"),
            java.util.Map.entry(key(1, 2, 0x02), "invalid MSN - no buffer available"),
            java.util.Map.entry(key(1, 2, 0x03), "invalid MSN - MSN range is not valid"),
            java.util.Map.entry(key(1, 2, 0x04), "invalid MO"),
            java.util.Map.entry(key(1, 2, 0x05), "DDP message too long for available buffer"),
            java.util.Map.entry(key(1, 2, 0x06), "invalid DDP version"),
            java.util.Map.entry(key(2, 0, 0x01), "TCP connection closed, terminated or lost"),
            java.util.Map.entry(key(2, 0, 0x02), "MPA CRC error"),
            java.util.Map.entry(key(2, 0, 0x03), "MPA marker and ULPDU_Length field mismatch (marker/FPDU start mismatch)"),
            java.util.Map.entry(key(2, 0, 0x04), "invalid MPA Request or Reply frame"),
            java.util.Map.entry(key(2, 0, 0x05), "local catastrophic error"),
            java.util.Map.entry(key(2, 0, 0x06), "insufficient IRD resources"),
            java.util.Map.entry(key(2, 0, 0x07), "no matching RTR model"));
}
