package io.jrnic.rdmap;

import io.netty.buffer.ByteBuf;

/**
 * Flyweight over the Atomic Request header (RFC 7306 section 8.1.1), after the untagged DDP
 * header (QN 1): {@code op word(4) | RequestId(4) | RemoteSTag(4) | RemoteTO(8) | AddOrSwap(8) |
 * AddOrSwapMask(8) | Compare(8) | CompareMask(8)} = 52 bytes. The atomic operation code sits in the
 * low 4 bits of the op word (FetchAdd 0, CompareSwap 2); the other 28 bits are reserved.
 * Offsets relative to the end of the DDP header.
 */
public final class AtomicRequestHeader {
    public static final int OPCODE_WORD_OFFSET = 0;
    public static final int REQUEST_ID_OFFSET = 4;
    public static final int REMOTE_STAG_OFFSET = 8;
    public static final int REMOTE_TO_OFFSET = 12;
    public static final int ADD_OR_SWAP_OFFSET = 20;
    public static final int ADD_OR_SWAP_MASK_OFFSET = 28;
    public static final int COMPARE_OFFSET = 36;
    public static final int COMPARE_MASK_OFFSET = 44;
    public static final int LENGTH = 52;

    /** Atomic operation codes (RFC 7306 section 8.1.1). */
    public static final int OP_FETCH_ADD = 0x0;
    public static final int OP_COMPARE_SWAP = 0x2;
    public static final int OP_MASK = 0x0000000F;

    private ByteBuf buffer;
    private int offset;

    public AtomicRequestHeader wrap(ByteBuf buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** The whole op word, reserved bits included. */
    public int opcodeWord() {
        return buffer.getInt(offset + OPCODE_WORD_OFFSET);
    }

    public int atomicOperation() {
        return atomicOperation(buffer, offset);
    }

    /** Writes the op word: the operation code, reserved bits zero. */
    public AtomicRequestHeader atomicOperation(int op) {
        buffer.setInt(offset + OPCODE_WORD_OFFSET, op & OP_MASK);
        return this;
    }

    public int requestId() {
        return requestId(buffer, offset);
    }

    public AtomicRequestHeader requestId(int id) {
        buffer.setInt(offset + REQUEST_ID_OFFSET, id);
        return this;
    }

    public int remoteStag() {
        return remoteStag(buffer, offset);
    }

    public AtomicRequestHeader remoteStag(int stag) {
        buffer.setInt(offset + REMOTE_STAG_OFFSET, stag);
        return this;
    }

    public long remoteTaggedOffset() {
        return remoteTaggedOffset(buffer, offset);
    }

    public AtomicRequestHeader remoteTaggedOffset(long to) {
        buffer.setLong(offset + REMOTE_TO_OFFSET, to);
        return this;
    }

    public long addOrSwap() {
        return buffer.getLong(offset + ADD_OR_SWAP_OFFSET);
    }

    public AtomicRequestHeader addOrSwap(long v) {
        buffer.setLong(offset + ADD_OR_SWAP_OFFSET, v);
        return this;
    }

    public long addOrSwapMask() {
        return buffer.getLong(offset + ADD_OR_SWAP_MASK_OFFSET);
    }

    public AtomicRequestHeader addOrSwapMask(long v) {
        buffer.setLong(offset + ADD_OR_SWAP_MASK_OFFSET, v);
        return this;
    }

    public long compare() {
        return buffer.getLong(offset + COMPARE_OFFSET);
    }

    public AtomicRequestHeader compare(long v) {
        buffer.setLong(offset + COMPARE_OFFSET, v);
        return this;
    }

    public long compareMask() {
        return buffer.getLong(offset + COMPARE_MASK_OFFSET);
    }

    public AtomicRequestHeader compareMask(long v) {
        buffer.setLong(offset + COMPARE_MASK_OFFSET, v);
        return this;
    }

    public static int atomicOperation(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + OPCODE_WORD_OFFSET) & OP_MASK;
    }

    public static int requestId(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + REQUEST_ID_OFFSET);
    }

    public static int remoteStag(ByteBuf buffer, int offset) {
        return buffer.getInt(offset + REMOTE_STAG_OFFSET);
    }

    public static long remoteTaggedOffset(ByteBuf buffer, int offset) {
        return buffer.getLong(offset + REMOTE_TO_OFFSET);
    }
}
