package io.jrnic.fuzz;

import java.io.ByteArrayOutputStream;

/** Writes seed inputs in the layout {@link FuzzInput} reads. */
final class SeedWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    SeedWriter u8(int v) {
        out.write(v & 0xFF);
        return this;
    }

    SeedWriter bool(boolean v) {
        return u8(v ? 1 : 0);
    }

    SeedWriter u16(int v) {
        return u8(v >>> 8).u8(v);
    }

    SeedWriter u32(long v) {
        return u16((int) (v >>> 16)).u16((int) v);
    }

    SeedWriter u64(long v) {
        return u32(v >>> 32).u32(v);
    }

    /** The value {@link FuzzInput#intIn} maps to {@code v} for the range starting at {@code lo}. */
    SeedWriter intIn(int lo, int v) {
        return u32((long) v - lo);
    }

    SeedWriter bytes(byte[] b) {
        out.writeBytes(b);
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
