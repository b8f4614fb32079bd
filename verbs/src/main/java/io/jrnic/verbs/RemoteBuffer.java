package io.jrnic.verbs;

import java.nio.ByteBuffer;

/**
 * What a peer needs to address a registered buffer: STag, the tagged offset (TO) of its first
 * byte, and its length. Compact wire form (our convention, carried in private data or a Send),
 * 16 bytes big-endian: {@code STag(4) | address(8) | length(4)}.
 *
 * @param stag    the STag to put in RDMA Write / Read Request headers
 * @param address the TO of the first byte (0 for a zero-based region)
 * @param length  number of bytes reachable, unsigned 32-bit kept in a long
 */
public record RemoteBuffer(int stag, long address, long length) {

    /** Size of the wire form. */
    public static final int WIRE_SIZE = 16;

    public RemoteBuffer {
        if (length < 0 || length > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("length must be an unsigned 32-bit value: " + length);
        }
    }

    /** TO of byte {@code offset} of this buffer. @throws IndexOutOfBoundsException beyond the length */
    public long to(long offset) {
        if (offset < 0 || offset > length) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside remote buffer of " + length);
        }
        return address + offset;
    }

    /** Sub-range {@code [offset, offset+len)} of this buffer. */
    public RemoteBuffer slice(long offset, long len) {
        if (offset < 0 || len < 0 || offset + len > length) {
            throw new IndexOutOfBoundsException("slice [" + offset + "," + (offset + len) + ") outside " + length);
        }
        return new RemoteBuffer(stag, address + offset, len);
    }

    /** Writes the 16-byte wire form at {@code dst}'s position (advancing it). */
    public ByteBuffer writeTo(ByteBuffer dst) {
        int p = dst.position();
        dst.putInt(p, stag).putLong(p + 4, address).putInt(p + 12, (int) length);
        dst.position(p + WIRE_SIZE);
        return dst;
    }

    /** Writes the wire form into {@code dst} at {@code offset}. */
    public void writeTo(byte[] dst, int offset) {
        writeTo(ByteBuffer.wrap(dst, offset, WIRE_SIZE));
    }

    /** The 16-byte wire form. */
    public byte[] toBytes() {
        byte[] b = new byte[WIRE_SIZE];
        writeTo(b, 0);
        return b;
    }

    /** Parses the first 16 bytes of {@code src}. @throws IllegalArgumentException when shorter */
    public static RemoteBuffer parse(byte[] src) {
        return parse(src, 0);
    }

    /** Parses 16 bytes at {@code offset}. */
    public static RemoteBuffer parse(byte[] src, int offset) {
        if (src == null || offset < 0 || src.length - offset < WIRE_SIZE) {
            throw new IllegalArgumentException("need " + WIRE_SIZE + " bytes for a RemoteBuffer, have "
                    + (src == null ? 0 : Math.max(0, src.length - offset)));
        }
        return parse(ByteBuffer.wrap(src, offset, WIRE_SIZE));
    }

    /** Parses 16 bytes at {@code src}'s position (advancing it). */
    public static RemoteBuffer parse(ByteBuffer src) {
        if (src.remaining() < WIRE_SIZE) {
            throw new IllegalArgumentException("need " + WIRE_SIZE + " bytes for a RemoteBuffer, have " + src.remaining());
        }
        int p = src.position();
        RemoteBuffer rb = new RemoteBuffer(src.getInt(p), src.getLong(p + 4), Integer.toUnsignedLong(src.getInt(p + 12)));
        src.position(p + WIRE_SIZE);
        return rb;
    }

    @Override
    public String toString() {
        return String.format("RemoteBuffer[stag=0x%08x to=0x%x len=%d]", stag, address, length);
    }
}
