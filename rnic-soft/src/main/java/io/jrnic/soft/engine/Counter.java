package io.jrnic.soft.engine;

/** The soft RNIC's per-QP counters; {@link #key()} is the name in {@code io.jrnic.verbs.Stats}. */
public enum Counter {
    TX_BYTES("txBytes"),
    TX_FPDUS("txFpdus"),
    RX_BYTES("rxBytes"),
    RX_FPDUS("rxFpdus"),
    TX_SEND("txMessages.SEND"),
    TX_WRITE("txMessages.RDMA_WRITE"),
    TX_READ("txMessages.RDMA_READ"),
    TX_ATOMIC("txMessages.ATOMIC"),
    RX_SEND("rxMessages.SEND"),
    RX_WRITE("rxMessages.RDMA_WRITE"),
    RX_READ_REQUEST("rxMessages.RDMA_READ_REQUEST"),
    RX_READ_RESPONSE("rxMessages.RDMA_READ_RESPONSE"),
    RX_ATOMIC("rxMessages.ATOMIC"),
    RX_TERMINATE("rxMessages.TERMINATE"),
    CRC_ERRORS("crcErrors"),
    MARKER_ERRORS("markerErrors"),
    TERMINATES_SENT("terminatesSent"),
    TERMINATES_RECEIVED("terminatesReceived"),
    FLUSHED_WRS("flushedWrs"),
    RQ_EMPTY("rqEmpty"),
    BACKPRESSURE_STALLS("backpressureStalls"),
    BACKPRESSURE_NANOS("backpressureNanos"),
    TRANSMIT_STALL_TIMEOUTS("transmitStallTimeouts"),
    IRD_HIGH_WATER("inboundReadQueueHighWater"),
    ORD_HIGH_WATER("outboundReadQueueHighWater"),
    /** Batches the posting thread wrote straight into the socket (transmit in place, no event-loop wake-up). */
    TX_IN_PLACE("txInPlace"),
    /** In-place writes the socket did not take whole: the rest went to the event loop. */
    TX_IN_PLACE_HANDOVERS("txInPlaceHandovers"),
    /** Payload octets those writes took from registered memory where it lies (gathered, not copied into a batch). */
    TX_IN_PLACE_GATHERED_BYTES("txInPlaceGatheredBytes"),
    /** Socket reads a thread polling the CQ did itself (receive in place, no event-loop wake-up). */
    RX_IN_PLACE("rxInPlace"),
    /** The bytes those reads took (included in rxBytes). */
    RX_IN_PLACE_BYTES("rxInPlaceBytes"),
    /** Times busy pollers took the stream's reads from the event loop (its auto-read off until they stop). */
    RX_POLLER_TAKEOVERS("rxPollerTakeovers"),
    /** In-place reads that met a failed stream (a reset): the QP's LLP error, reported by the event loop's close. */
    RX_IN_PLACE_FAILURES("rxInPlaceFailures"),
    /** Polls that did not read because the read before drained the socket (the next wait or poll reads). */
    RX_IN_PLACE_SKIPS("rxInPlaceSkips"),
    /** Waits a blocked consumer did on the stream's socket itself ({@link StreamWait}: one wake-up per message). */
    RX_CONSUMER_WAITS("rxConsumerWaits"),
    /** FPDUs whose payload went to its target before the CRC was checked (direct placement), counted once it was. */
    RX_DIRECT_FPDUS("rxDirectFpdus"),
    /** Octets read from the socket straight into registered memory (included in rxBytes). */
    RX_DIRECT_BYTES("rxDirectBytes");

    private final String key;

    Counter(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }
}
