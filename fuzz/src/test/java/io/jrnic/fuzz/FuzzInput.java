package io.jrnic.fuzz;

import java.util.Arrays;

/**
 * Reads fuzzer-chosen values from the front of a raw byte[] input, big-endian; past the end every
 * value reads as zero. Raw byte[] inputs keep the seed files plain binary (libFuzzer mutates them
 * directly) and {@link SeedWriter} writes the same layout for the generated seeds.
 */
final class FuzzInput {
    private final byte[] data;
    private int pos;

    FuzzInput(byte[] data) {
        this.data = data;
    }

    int remaining() {
        return data.length - pos;
    }

    int u8() {
        return pos < data.length ? data[pos++] & 0xFF : 0;
    }

    boolean bool() {
        return (u8() & 1) != 0;
    }

    int u16() {
        return u8() << 8 | u8();
    }

    long u32() {
        return (long) u16() << 16 | u16();
    }

    long u64() {
        return u32() << 32 | u32();
    }

    /** A value in [lo, hi] (hi - lo below 2^32). */
    int intIn(int lo, int hi) {
        long span = (long) hi - lo + 1;
        return (int) (lo + u32() % span);
    }

    /** Up to {@code n} bytes (fewer at the end of the input). */
    byte[] bytes(int n) {
        int k = Math.max(0, Math.min(n, remaining()));
        byte[] b = Arrays.copyOfRange(data, pos, pos + k);
        pos += k;
        return b;
    }

    /** Exactly {@code n} bytes, zero-padded past the end. */
    byte[] bytesPadded(int n) {
        return Arrays.copyOf(bytes(n), n);
    }

    byte[] rest() {
        return bytes(remaining());
    }
}
