package io.jrnic.interop.pcap;

/**
 * One pcap record.
 *
 * @param frame          1-based record number (Wireshark's frame number)
 * @param timestampNanos capture time, nanoseconds since the epoch
 * @param linkType       the file's link-layer header type (LINKTYPE_*)
 * @param data           the captured bytes (may be shorter than {@code originalLength})
 * @param originalLength the length of the packet on the wire
 */
public record PcapPacket(long frame, long timestampNanos, int linkType, byte[] data, int originalLength) {
}
