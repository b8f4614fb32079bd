package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC-32C over ByteBuf ranges, as MPA uses it (RFC 5044 section 4.1, iSCSI CRC,
 * RFC 3385). The FPDU carries the standard CRC-32C value in little-endian byte order; the
 * {@code wireValue} methods return the int whose big-endian bytes are those wire bytes, so
 * {@code buf.writeInt(wireValue)} writes the field as it appears on the wire.
 *
 * <p>An instance wraps one reusable {@link CRC32C}; it is not thread safe. Updates read heap
 * buffers through their array and direct buffers through an NIO view, without copying.
 */
public final class MpaCrc {
    private final CRC32C crc = new CRC32C();

    public MpaCrc reset() {
        crc.reset();
        return this;
    }

    /** Adds {@code length} bytes of {@code buf} from absolute {@code index}; indices unchanged. */
    public MpaCrc update(ByteBuf buf, int index, int length) {
        update(crc, buf, index, length);
        return this;
    }

    /** Adds the remaining bytes of {@code nio} (its position moves to its limit). */
    public MpaCrc update(ByteBuffer nio) {
        crc.update(nio);
        return this;
    }

    /** Adds {@code length} bytes of {@code array} from {@code offset}. */
    public MpaCrc update(byte[] array, int offset, int length) {
        crc.update(array, offset, length);
        return this;
    }

    /** The standard CRC-32C value of everything added since the last reset. */
    public int value() {
        return (int) crc.getValue();
    }

    /** The CRC field as it appears on the wire (see class comment). */
    public int wireValue() {
        return toWire(value());
    }

    /** Standard value to wire value and back (a byte swap, its own inverse). */
    public static int toWire(int standardValue) {
        return Integer.reverseBytes(standardValue);
    }

    /** The wire value of a range, with a fresh CRC32C (convenience, not for the hot path). */
    public static int wireValue(ByteBuf buf, int index, int length) {
        CRC32C c = new CRC32C();
        update(c, buf, index, length);
        return toWire((int) c.getValue());
    }

    /** The wire value of the readable bytes of {@code buf}. */
    public static int wireValue(ByteBuf buf) {
        return wireValue(buf, buf.readerIndex(), buf.readableBytes());
    }

    static void update(CRC32C crc, ByteBuf buf, int index, int length) {
        if (length == 0) {
            return;
        }
        if (buf.hasArray()) {
            crc.update(buf.array(), buf.arrayOffset() + index, length);
        } else if (buf.nioBufferCount() == 1) {
            ByteBuffer nio = buf.internalNioBuffer(index, length);
            crc.update(nio);
        } else {
            for (ByteBuffer nio : buf.nioBuffers(index, length)) {
                crc.update(nio);
            }
        }
    }
}
