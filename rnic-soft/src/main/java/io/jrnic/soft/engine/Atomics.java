package io.jrnic.soft.engine;

/** The RFC 7306 section 6 atomic operations on a 64-bit value, with their masks. */
final class Atomics {
    private Atomics() {
    }

    /**
     * Fetch and Add: {@code mask} bits mark the most significant bit of each field of a partitioned add
     * (carries do not propagate out of a set bit); mask 0 is one 64-bit add.
     */
    static long fetchAdd(long original, long add, long mask) {
        if (mask == 0) {
            return original + add;
        }
        long result = 0;
        long carry = 0;
        for (int bit = 0; bit < 64; bit++) {
            long a = (original >>> bit) & 1;
            long b = (add >>> bit) & 1;
            long s = a ^ b ^ carry;
            carry = (a & b) | (a & carry) | (b & carry);
            if (((mask >>> bit) & 1) != 0) {
                carry = 0;
            }
            result |= s << bit;
        }
        return result;
    }

    /** Compare and Swap: if the compared bits match, the swap-mask bits take the swap value. */
    static long compareSwap(long original, long compare, long compareMask, long swap, long swapMask) {
        if ((original & compareMask) != (compare & compareMask)) {
            return original;
        }
        return (original & ~swapMask) | (swap & swapMask);
    }
}
