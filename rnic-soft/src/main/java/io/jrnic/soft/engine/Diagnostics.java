package io.jrnic.soft.engine;

/**
 * The engine's diagnostic switches, all of them (rnic-soft/README.md, "Diagnostics"): for finding out whether a
 * problem or a figure comes from work done in place. Both are on by default; turning one off moves that work back to
 * the stream's event loop, as for a stream that does not allow it (NIO, a capture in the pipeline).
 */
final class Diagnostics {
    /** {@code -Djrnic.transmitInPlace=false}: posting threads never transmit in place ({@link TxWire}). */
    static final boolean TRANSMIT_IN_PLACE = !"false".equals(System.getProperty("jrnic.transmitInPlace"));
    /** {@code -Djrnic.receiveInPlace=false}: polling threads never read a stream ({@link ReceiveInPlace}). */
    static final boolean RECEIVE_IN_PLACE = !"false".equals(System.getProperty("jrnic.receiveInPlace"));

    private Diagnostics() {
    }
}
