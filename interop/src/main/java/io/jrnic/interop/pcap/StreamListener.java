package io.jrnic.interop.pcap;

/** Receives the reassembled byte streams of {@link TcpReassembler}. */
public interface StreamListener {
    /** A new stream in this direction begins (first segment seen, or a SYN with a new ISN). */
    void onStreamStart(TcpFlow flow, long frame, boolean fromSyn);

    /** The next in-order bytes of the direction. */
    void onChunk(TcpFlow flow, StreamChunk chunk);

    /**
     * Bytes {@code [streamOffset, streamOffset + length)} were never captured (lost, cut by the
     * snap length, or out-of-order data over the memory bound); delivery resumes after them.
     */
    void onGap(TcpFlow flow, long streamOffset, long length, long frame);
}
