package io.jrnic.examples.srp;

import java.nio.ByteBuffer;

/**
 * Verifiable block content: every 8-byte word of block {@code lba} at generation {@code gen} is a
 * mix of (lba, gen, word index), so a block read back proves which write it came from.
 */
final class BlockPattern {
    private static final int WORDS = SrpWire.BLOCK / Long.BYTES;

    private BlockPattern() {
    }

    static long word(long lba, int gen, int i) {
        long x = lba * 0x9E3779B97F4A7C15L ^ ((long) gen << 40) ^ i;
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        return x ^ (x >>> 29);
    }

    /** Fills {@code blocks} blocks of {@code buf} from index 0 for blocks lba, lba+1, ... at generation gens[lba+k]. */
    static void fill(ByteBuffer buf, long lba, int blocks, int[] gens) {
        for (int b = 0; b < blocks; b++) {
            int base = b * SrpWire.BLOCK;
            int gen = gens[(int) (lba + b)];
            for (int i = 0; i < WORDS; i++) {
                buf.putLong(base + i * Long.BYTES, word(lba + b, gen, i));
            }
        }
    }

    /** The first block whose content differs from the expected generation, or -1. */
    static long firstMismatch(ByteBuffer buf, long lba, int blocks, int[] gens) {
        for (int b = 0; b < blocks; b++) {
            int base = b * SrpWire.BLOCK;
            int gen = gens[(int) (lba + b)];
            for (int i = 0; i < WORDS; i++) {
                if (buf.getLong(base + i * Long.BYTES) != word(lba + b, gen, i)) {
                    return lba + b;
                }
            }
        }
        return -1;
    }
}
