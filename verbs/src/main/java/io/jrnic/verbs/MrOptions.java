package io.jrnic.verbs;

/**
 * Immutable registration options: access rights, tagged-offset model and STag key.
 * Default: no rights, zero-based (TO 0 = first byte), an STag key the provider draws at random
 * ({@link #PROVIDER_KEY}; RFC 5042 section 5.1: STags a peer cannot predict).
 */
public final class MrOptions {
    private final int access;
    private final boolean zeroBased;
    private final long base;
    private final int key;

    /** The provider picks the STag key: unpredictable (the soft provider draws it from a CSPRNG). The default. */
    public static final int PROVIDER_KEY = io.jrnic.verbs.spi.MrSpec.PROVIDER_KEY;

    private MrOptions(int access, boolean zeroBased, long base, int key) {
        this.access = Access.validateRegion(access);
        this.zeroBased = zeroBased;
        this.base = base;
        if ((key < 0 || key > 0xFF) && key != PROVIDER_KEY) {
            throw new IllegalArgumentException("STag key is 8 bits: " + key);
        }
        this.key = key;
    }

    public static MrOptions of(Access... access) {
        return new MrOptions(Access.mask(access), true, 0, PROVIDER_KEY);
    }

    public MrOptions access(Access... a) {
        return new MrOptions(Access.mask(a), zeroBased, base, key);
    }

    /** TO 0 names the first byte (default; what a Java peer usually wants). */
    public MrOptions zeroBased() {
        return new MrOptions(access, true, 0, key);
    }

    /** Address-based: the provider picks the base TO (e.g. a direct buffer's address). */
    public MrOptions addressBased() {
        return new MrOptions(access, false, io.jrnic.verbs.spi.MrSpec.PROVIDER_CHOOSES_BASE, key);
    }

    /** Address-based with the given base TO. @throws IllegalArgumentException when negative (reserved sentinel) */
    public MrOptions baseAddress(long base) {
        if (base < 0) {
            throw new IllegalArgumentException("base address must be non-negative: " + base);
        }
        return new MrOptions(access, false, base, key);
    }

    /**
     * The consumer's 8-bit STag key instead of a random one (the index stays the provider's).
     *
     * @throws IllegalArgumentException outside 0..255
     */
    public MrOptions key(int key) {
        if (key < 0 || key > 0xFF) {
            throw new IllegalArgumentException("STag key is 8 bits: " + key);
        }
        return new MrOptions(access, zeroBased, base, key);
    }

    public int accessMask() {
        return access;
    }

    public boolean isZeroBased() {
        return zeroBased;
    }

    public long base() {
        return base;
    }

    /** The consumer's key, or {@link #PROVIDER_KEY}. */
    public int key() {
        return key;
    }
}
