package io.jrnic.interop.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Minimal classic pcap writer (for crafted captures in tests and tools): either byte order,
 * micro- or nanosecond timestamps, any link type; records are written as given.
 */
public final class ClassicPcapWriter implements Closeable {
    private final OutputStream out;
    private final ByteOrder order;
    private final boolean nanos;

    public ClassicPcapWriter(OutputStream out, int linkType) throws IOException {
        this(out, linkType, ByteOrder.BIG_ENDIAN, false);
    }

    public ClassicPcapWriter(OutputStream out, int linkType, ByteOrder order, boolean nanos) throws IOException {
        this.out = out;
        this.order = order;
        this.nanos = nanos;
        ByteBuffer h = ByteBuffer.allocate(PcapReader.GLOBAL_HEADER).order(order);
        h.putInt(nanos ? 0xA1B23C4D : 0xA1B2C3D4).putShort((short) 2).putShort((short) 4)
                .putInt(0).putInt(0).putInt(PcapReader.MAX_RECORD).putInt(linkType);
        out.write(h.array());
    }

    /** Writes one record; {@code originalLength} may exceed data.length (snap-length cut). */
    public void write(long timestampNanos, byte[] data, int originalLength) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(PcapReader.RECORD_HEADER).order(order);
        long sec = timestampNanos / 1_000_000_000L;
        long frac = timestampNanos % 1_000_000_000L;
        h.putInt((int) sec).putInt((int) (nanos ? frac : frac / 1000)).putInt(data.length).putInt(originalLength);
        out.write(h.array());
        out.write(data);
    }

    public void write(long timestampNanos, byte[] data) throws IOException {
        write(timestampNanos, data, data.length);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
