package io.jrnic.nvmf.wire;

import java.nio.ByteBuffer;

/**
 * One 16-octet SGL descriptor (NVMe base 1.4 section 4.4, figure "SGL Descriptor"; NVMe over
 * Fabrics 1.1 section 2.3 for the keyed form). Octets 0-7 Address, octet 15 SGL Identifier
 * (descriptor type in bits 7:4, sub type in bits 3:0). A Keyed SGL Data Block (type 4) has a 24-bit
 * Length in octets 8-10 and a 32-bit Key in octets 11-14; an SGL Data Block (type 0) a 32-bit
 * Length in octets 8-11. Little-endian.
 *
 * @param address address, or offset into the capsule's data for {@link #SUBTYPE_OFFSET}
 */
public record Sgl(int type, int subtype, long address, long length, int key) {
    public static final int SIZE = 16;
    public static final int TYPE_DATA_BLOCK = 0x0;
    public static final int TYPE_KEYED_DATA_BLOCK = 0x4;
    /** Sub type Address (the Address field is a memory address). */
    public static final int SUBTYPE_ADDRESS = 0x0;
    /** Sub type Offset (data block: the Address is an offset into the in-capsule data). */
    public static final int SUBTYPE_OFFSET = 0x1;
    /** Keyed data block sub type Invalidate Key: the controller invalidates Key with the response. */
    public static final int SUBTYPE_INVALIDATE_KEY = 0xF;
    /** Largest length of a keyed data block (24 bits). */
    public static final int KEYED_MAX_LENGTH = 0xFF_FFFF;

    /** A keyed data block at {@code address} of {@code length} octets under {@code key}. */
    public static Sgl keyed(long address, int length, int key, boolean invalidate) {
        if (length < 0 || length > KEYED_MAX_LENGTH) {
            throw new IllegalArgumentException("keyed SGL length " + length);
        }
        return new Sgl(TYPE_KEYED_DATA_BLOCK, invalidate ? SUBTYPE_INVALIDATE_KEY : SUBTYPE_ADDRESS, address, length,
                key);
    }

    /** A data block of {@code length} octets at {@code offset} into the command capsule's data. */
    public static Sgl inCapsule(long offset, int length) {
        return new Sgl(TYPE_DATA_BLOCK, SUBTYPE_OFFSET, offset, Integer.toUnsignedLong(length), 0);
    }

    public boolean isKeyed() {
        return type == TYPE_KEYED_DATA_BLOCK;
    }

    public boolean isInCapsule() {
        return type == TYPE_DATA_BLOCK && subtype == SUBTYPE_OFFSET;
    }

    /** True for a keyed block whose sub type asks for invalidation of the key. */
    public boolean invalidatesKey() {
        return isKeyed() && subtype == SUBTYPE_INVALIDATE_KEY;
    }

    /** Writes the descriptor at {@code at} of a little-endian buffer. */
    public void encode(ByteBuffer le, int at) {
        le.putLong(at, address);
        if (type == TYPE_KEYED_DATA_BLOCK) {
            le.put(at + 8, (byte) length).put(at + 9, (byte) (length >>> 8)).put(at + 10, (byte) (length >>> 16));
            le.putInt(at + 11, key);
        } else {
            le.putInt(at + 8, (int) length);
            le.put(at + 12, (byte) 0).put(at + 13, (byte) 0).put(at + 14, (byte) 0);
        }
        le.put(at + 15, (byte) (type << 4 | subtype));
    }

    /** Reads the descriptor at {@code at} of a little-endian buffer (any type; callers check it). */
    public static Sgl decode(ByteBuffer le, int at) {
        int id = le.get(at + 15) & 0xFF;
        int type = id >>> 4;
        int subtype = id & 0xF;
        long address = le.getLong(at);
        if (type == TYPE_KEYED_DATA_BLOCK) {
            long length = (le.get(at + 8) & 0xFF) | (le.get(at + 9) & 0xFF) << 8 | (le.get(at + 10) & 0xFF) << 16;
            return new Sgl(type, subtype, address, length, le.getInt(at + 11));
        }
        return new Sgl(type, subtype, address, Integer.toUnsignedLong(le.getInt(at + 8)), 0);
    }
}
