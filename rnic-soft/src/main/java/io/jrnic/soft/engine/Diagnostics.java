package io.jrnic.soft.engine;

/**
 * The engine's diagnostic switches, all of them (rnic-soft/README.md, "Diagnostics"): for finding out whether a
 * problem or a figure comes from work done in place. All are on by default; turning one off moves that work back to
 * the stream's event loop, as for a stream that does not allow it (NIO, a capture in the pipeline).
 */
final class Diagnostics {
    /** {@code -Djrnic.transmitInPlace=false}: posting threads never transmit in place ({@link TxWire}). */
    static final boolean TRANSMIT_IN_PLACE = !"false".equals(System.getProperty("jrnic.transmitInPlace"));
    /** {@code -Djrnic.receiveInPlace=false}: polling threads never read a stream ({@link ReceiveInPlace}). */
    static final boolean RECEIVE_IN_PLACE = !"false".equals(System.getProperty("jrnic.receiveInPlace"));

    /**
     * {@code -Djrnic.directWait=false}: a consumer blocked on a CQ of one QP waits on the CQ, woken by the event loop,
     * instead of on the QP's socket itself ({@link StreamWait}).
     */
    static final boolean DIRECT_WAIT = !"false".equals(System.getProperty("jrnic.directWait"));

    private Diagnostics() {
    }
}
