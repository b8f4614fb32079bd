package io.jrnic.interop.pcap;

/**
 * A TCP segment taken out of a captured packet.
 *
 * @param frame          the pcap record number
 * @param timestampNanos capture time
 * @param flow           source and destination endpoints
 * @param seq            sequence number (unsigned 32-bit)
 * @param flags          TCP flags (low 8 bits: CWR ECE URG ACK PSH RST SYN FIN)
 * @param payload        the captured payload bytes
 * @param missing        payload bytes the segment carried on the wire but the capture cut off
 */
public record TcpSegment(long frame, long timestampNanos, TcpFlow flow, long seq, int flags, byte[] payload,
                         int missing) {
    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int ACK = 0x10;

    public boolean syn() {
        return (flags & SYN) != 0;
    }

    /** Sequence space occupied by the payload (SYN and FIN excluded). */
    public int payloadLength() {
        return payload.length + missing;
    }
}
