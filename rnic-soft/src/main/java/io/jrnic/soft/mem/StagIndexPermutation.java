package io.jrnic.soft.mem;

import java.security.SecureRandom;

/**
 * A secret bijection on 24-bit STag indices (RFC 5042 section 5.1: a peer must not be able to predict
 * STags): the memory table stores entries in dense slots 1..n, and the index a slot is known by on the wire
 * is this permutation of it, so that neighbouring slots have unrelated indices. A four-round Feistel network
 * over two 12-bit halves, its round keys drawn once per device from a {@link SecureRandom}; both directions
 * are O(1) and allocation-free (lookups run on the event loops).
 *
 * <p>This hides the table's layout; it is not a cipher with a security proof. The per-registration random key
 * (8 bits from the same CSPRNG) is what a peer must still guess even when it knows an index.
 */
final class StagIndexPermutation {
    private static final int ROUNDS = 4;
    private static final int HALF = 12;
    private static final int MASK = (1 << HALF) - 1;
    private final int[] roundKeys = new int[ROUNDS];

    StagIndexPermutation(SecureRandom random) {
        for (int i = 0; i < ROUNDS; i++) {
            roundKeys[i] = random.nextInt();
        }
    }

    /** The wire index of {@code slot} (24 bits). */
    int index(int slot) {
        int l = (slot >>> HALF) & MASK;
        int r = slot & MASK;
        for (int i = 0; i < ROUNDS; i++) {
            int t = r;
            r = l ^ round(r, roundKeys[i]);
            l = t;
        }
        return (l << HALF) | r;
    }

    /** The slot whose wire index is {@code index} (24 bits). */
    int slot(int index) {
        int l = (index >>> HALF) & MASK;
        int r = index & MASK;
        for (int i = ROUNDS - 1; i >= 0; i--) {
            int t = l;
            l = r ^ round(l, roundKeys[i]);
            r = t;
        }
        return (l << HALF) | r;
    }

    private static int round(int half, int key) {
        int h = (half ^ key) * 0x9E37_79B1;
        h ^= h >>> 15;
        h *= 0x85EB_CA6B;
        h ^= h >>> 13;
        return h & MASK;
    }
}
