package io.jrnic.cli.perf;

/**
 * The data pattern every test moves and verifies: byte k of a message is {@link #at(int)}; not
 * periodic at 256, never all-zero, so a stale or unplaced buffer cannot pass.
 */
public final class Pattern {
    private Pattern() {
    }

    public static byte at(int k) {
        return (byte) (k * 7 + (k >>> 8) * 13 + 0x5A);
    }

    public static void fill(byte[] b, int off, int len) {
        for (int k = 0; k < len; k++) {
            b[off + k] = at(k);
        }
    }

    /** Index of the first byte in b[off, off+len) that differs from the pattern, or -1. */
    public static int firstMismatch(byte[] b, int off, int len) {
        for (int k = 0; k < len; k++) {
            if (b[off + k] != at(k)) {
                return k;
            }
        }
        return -1;
    }

    /** Null when b[off, off+len) holds the pattern, else a one-line description of the first mismatch. */
    public static String check(String what, byte[] b, int off, int len) {
        int k = firstMismatch(b, off, len);
        return k < 0 ? null : String.format("%s: byte %d of %d is 0x%02x, expected 0x%02x",
                what, k, len, b[off + k] & 0xFF, at(k) & 0xFF);
    }

    /** As {@link #fill(byte[], int, int)}, in absolute indices of {@code b}. */
    public static void fill(java.nio.ByteBuffer b, int off, int len) {
        for (int k = 0; k < len; k++) {
            b.put(off + k, at(k));
        }
    }

    /** As {@link #check(String, byte[], int, int)}, in absolute indices of {@code b}. */
    public static String check(String what, java.nio.ByteBuffer b, int off, int len) {
        if (b.hasArray()) {
            return check(what, b.array(), b.arrayOffset() + off, len);
        }
        for (int k = 0; k < len; k++) {
            if (b.get(off + k) != at(k)) {
                return String.format("%s: byte %d of %d is 0x%02x, expected 0x%02x", what, k, len, b.get(off + k) & 0xFF,
                        at(k) & 0xFF);
            }
        }
        return null;
    }

    /** Non-zero tag of iteration i, stamped in the last byte by the latency ping-pongs (ib_write_lat style). */
    public static byte tag(long i) {
        return (byte) (i % 255 + 1);
    }
}
