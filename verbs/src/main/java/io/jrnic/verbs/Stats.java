package io.jrnic.verbs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An immutable snapshot of a device's or a queue pair's counters, provider-neutral: named
 * counters (for the soft provider see its {@code Counter} names such as {@code txBytes}),
 * Terminates sent and received keyed by their (layer, type, code) triple as {@code "RDMAP/0x1/0x2"},
 * MPA set-up failures by reason, and the TCP figures of the connection under the RNIC (TCP_INFO
 * where the transport offers it; empty otherwise).
 *
 * @param counters            counter name to value, in the provider's order
 * @param terminatesSent      triple to count
 * @param terminatesReceived  triple to count
 * @param setupFailures       MPA set-up failure reason to count (device level; empty for a QP)
 * @param tcp                 TCP figure name (rttMicros, retransmits, cwnd...) to value; empty when unknown
 */
public record Stats(Map<String, Long> counters, Map<String, Long> terminatesSent, Map<String, Long> terminatesReceived,
                    Map<String, Long> setupFailures, Map<String, Long> tcp) {
    /** No counters (a provider that keeps none). */
    public static final Stats EMPTY = new Stats(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    public Stats {
        counters = copy(counters);
        terminatesSent = copy(terminatesSent);
        terminatesReceived = copy(terminatesReceived);
        setupFailures = copy(setupFailures);
        tcp = copy(tcp);
    }

    private static Map<String, Long> copy(Map<String, Long> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** The named counter, 0 when the provider does not keep it. */
    public long counter(String name) {
        return counters.getOrDefault(name, 0L);
    }

    /**
     * The key of a Terminate triple in {@link #terminatesSent()} / {@link #terminatesReceived()}, e.g.
     * {@code "DDP/0x2/0x2"}.  The layer is named RDMAP (0), DDP (1) or LLP (2) as in RFC 6580. */
    public static String triple(int layer, int errorType, int errorCode) {
        String l = switch (layer) {
            case TerminateInfo.LAYER_RDMAP -> "RDMAP";
            case TerminateInfo.LAYER_DDP -> "DDP";
            case TerminateInfo.LAYER_LLP -> "LLP";
            default -> "layer" + layer;
        };
        return l + "/0x" + Integer.toHexString(errorType) + "/0x" + Integer.toHexString(errorCode);
    }

    /** Sum of all Terminates sent. */
    public long terminatesSentTotal() {
        return terminatesSent.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Sum of all Terminates received. */
    public long terminatesReceivedTotal() {
        return terminatesReceived.values().stream().mapToLong(Long::longValue).sum();
    }
}
