package io.jrnic.soft.engine;

/**
 * The engine's diagnostic switches, all of them (rnic-soft/README.md, "Diagnostics"): for finding out whether a
 * problem or a figure comes from work done in place, or from payloads placed before their CRC. All are on by default;
 * turning one off does that work as for a stream that does not allow it (NIO, a capture in the pipeline): on the
 * stream's event loop, or (direct placement) copied from the read buffer once the CRC checked good.
 */
final class Diagnostics {
    /** {@code -Djrnic.transmitInPlace=false}: posting threads never transmit in place ({@link TxWire}). */
    static final boolean TRANSMIT_IN_PLACE = !"false".equals(System.getProperty("jrnic.transmitInPlace"));
    /**
     * {@code -Djrnic.gatherInPlace=false}: a posting thread transmitting in place copies every payload into its batch
     * instead of writing payloads of registered direct memory from there by a gathering write ({@link InPlaceGather}).
     */
    static final boolean GATHER_IN_PLACE = !"false".equals(System.getProperty("jrnic.gatherInPlace"));
    /** {@code -Djrnic.receiveInPlace=false}: polling threads never read a stream ({@link ReceiveInPlace}). */
    static final boolean RECEIVE_IN_PLACE = !"false".equals(System.getProperty("jrnic.receiveInPlace"));

    /**
     * {@code -Djrnic.directWait=false}: a consumer blocked on a CQ of one QP waits on the CQ, woken by the event loop,
     * instead of on the QP's socket itself ({@link StreamWait}).
     */
    static final boolean DIRECT_WAIT = !"false".equals(System.getProperty("jrnic.directWait"));

    /**
     * {@code -Djrnic.directPlacement=false}: every payload is staged and copied after its FPDU's CRC checked good
     * (check first); by default the payload of an FPDU cut across reads is read into its target before
     * ({@link DirectPlacement}, spec-notes/placement.md).
     */
    static final boolean DIRECT_PLACEMENT = !"false".equals(System.getProperty("jrnic.directPlacement"));

    private Diagnostics() {
    }
}
