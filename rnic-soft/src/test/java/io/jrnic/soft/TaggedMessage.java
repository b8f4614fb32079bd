package io.jrnic.soft;

import java.nio.ByteBuffer;

/**
 * The messages of an {@link IsolatedPair}, as functions of the connection's id and the message's sequence number: each
 * starts with the tag (id, seq), 8 octets each, and goes on with a pattern of (id, seq); the lengths vary with both
 * (WRITE and its answer 16 B..8 KiB, SEND 16..256 B), so a message of another connection or another turn differs in
 * its tag, its length or its bytes.
 */
final class TaggedMessage {
    private TaggedMessage() {
    }

    static int writeLength(long id, long seq) {
        return 16 + (int) Math.floorMod(mix(id, seq), IsolatedPair.SLOT - 15L);
    }

    static int backLength(long id, long seq) {
        return writeLength(~id, seq);
    }

    static int sendLength(long id, long seq) {
        return 16 + (int) Math.floorMod(mix(seq, id), IsolatedPair.RECV - 15L);
    }

    private static long mix(long x, long y) {
        long h = x * 0x9E3779B97F4A7C15L + y;
        return h ^ (h >>> 29);
    }

    static byte fill(long id, long seq, int i) {
        return (byte) (id * 31 + seq * 7 + i * 13);
    }

    /** Writes message {@code seq}'s tag (id, seq) and pattern into {@code b} at {@code off}, {@code length} octets. */
    static void write(byte[] b, int off, int length, long id, long seq) {
        putLong(b, off, id);
        putLong(b, off + 8, seq);
        for (int i = 16; i < length; i++) {
            b[off + i] = fill(id, seq, i);
        }
    }

    /** Whether {@code b} at {@code off} holds the pattern of its tag's connection and {@code seq} after the tag. */
    static boolean filled(byte[] b, int off, int length, long seq) {
        long tag = getLong(b, off);
        for (int i = 16; i < length; i++) {
            if (b[off + i] != fill(tag, seq, i)) {
                return false;
            }
        }
        return true;
    }

    static long getLong(byte[] b, int off) {
        return ByteBuffer.wrap(b).getLong(off);
    }

    static void putLong(byte[] b, int off, long v) {
        ByteBuffer.wrap(b).putLong(off, v);
    }
}
