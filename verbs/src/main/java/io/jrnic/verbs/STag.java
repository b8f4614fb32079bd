package io.jrnic.verbs;

/**
 * Steering Tag (RFC 5040 section 2 / RFC 5041 section 3.2): a 32-bit value, the high 24 bits an
 * index chosen by the RNIC, the low 8 bits a key chosen by the consumer. Invalidation and
 * re-registration change the key so that a stale STag held by a peer stops working.
 *
 * <p>Hot paths use the static int helpers; the record is for logging and APIs that prefer a type.
 */
public record STag(int value) {

    /** Largest index (24 bits). */
    public static final int MAX_INDEX = 0xFF_FFFF;

    /** Composes index (24 bits) and key (8 bits). @throws IllegalArgumentException when out of range */
    public static STag of(int index, int key) {
        return new STag(compose(index, key));
    }

    /** Int form of {@link #of}. */
    public static int compose(int index, int key) {
        if (index < 0 || index > MAX_INDEX) {
            throw new IllegalArgumentException("STag index out of 24-bit range: " + index);
        }
        if (key < 0 || key > 0xFF) {
            throw new IllegalArgumentException("STag key out of 8-bit range: " + key);
        }
        return (index << 8) | key;
    }

    /** The 24-bit index of {@code stag}. */
    public static int index(int stag) {
        return stag >>> 8;
    }

    /** The 8-bit key of {@code stag}. */
    public static int key(int stag) {
        return stag & 0xFF;
    }

    /** {@code stag} with its key replaced. */
    public static int withKey(int stag, int key) {
        return compose(index(stag), key);
    }

    /** {@code stag} with its key incremented modulo 256 (the usual choice on re-registration). */
    public static int nextKey(int stag) {
        return (stag & 0xFFFF_FF00) | ((stag + 1) & 0xFF);
    }

    public int index() {
        return index(value);
    }

    public int key() {
        return key(value);
    }

    public STag withKey(int key) {
        return new STag(withKey(value, key));
    }

    public STag nextKey() {
        return new STag(nextKey(value));
    }

    /** Parses {@code 0x1234ab}-style or decimal text. */
    public static STag parse(String text) {
        String t = text.trim();
        long v = t.startsWith("0x") || t.startsWith("0X") ? Long.parseLong(t.substring(2), 16) : Long.parseLong(t);
        if (v < 0 || v > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("not a 32-bit STag: " + text);
        }
        return new STag((int) v);
    }

    @Override
    public String toString() {
        return String.format("STag[0x%08x index=%d key=0x%02x]", value, index(), key());
    }
}
