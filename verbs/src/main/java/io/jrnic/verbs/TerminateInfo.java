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

    @Override
    public String toString() {
        return String.format("%s/%d/0x%02x%s%s", layerName(), errorType, errorCode, received ? " (received)" : " (sent)",
                layout == TerminateLayout.SIW ? " [siw layout]" : "");
    }
}
