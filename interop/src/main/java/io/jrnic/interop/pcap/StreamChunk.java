package io.jrnic.interop.pcap;

/**
 * In-order bytes of one direction of a TCP connection, as carried by one TCP segment (after
 * trimming bytes already delivered).
 *
 * @param frame          pcap record number of the segment
 * @param timestampNanos its capture time
 * @param streamOffset   offset of {@code data[0]} in the direction's byte stream (0 = first byte after the SYN)
 * @param data           the bytes
 */
public record StreamChunk(long frame, long timestampNanos, long streamOffset, byte[] data) {
    public long end() {
        return streamOffset + data.length;
    }
}
