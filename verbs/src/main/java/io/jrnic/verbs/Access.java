package io.jrnic.verbs;

/**
 * Access rights of a memory region or window (RDMAC verbs "access control"; RFC 5040 section 6.4
 * checks REMOTE_READ on a Read Request source and REMOTE_WRITE on a tagged sink).
 *
 * <p>Rules enforced at registration/bind ({@link #validateRegion(int)}, {@link #validateWindow(int)}):
 * REMOTE_WRITE and REMOTE_ATOMIC require LOCAL_WRITE (the RNIC writes the memory on the peer's behalf);
 * a window may carry only remote rights; MW_BIND is a region right only.
 */
public enum Access {
    /** The local RNIC may write this memory (receive buffers, RDMA Read sinks, atomic result buffers). */
    LOCAL_WRITE(1),
    /** Peers may read it (source of an incoming RDMA Read Request). */
    REMOTE_READ(2),
    /** Peers may write it (sink of an RDMA Write / Read Response addressed to this STag). */
    REMOTE_WRITE(4),
    /** Peers may target it with RFC 7306 atomic operations. */
    REMOTE_ATOMIC(8),
    /** Memory windows may be bound over this region. */
    MW_BIND(16);

    private final int bit;

    Access(int bit) {
        this.bit = bit;
    }

    /** This right's bit in an access mask. */
    public int bit() {
        return bit;
    }

    /** True when {@code mask} contains this right. */
    public boolean in(int mask) {
        return (mask & bit) != 0;
    }

    /** The OR of the given rights' bits (0 for none). */
    public static int mask(Access... rights) {
        int m = 0;
        for (Access a : rights) {
            m |= a.bit;
        }
        return m;
    }

    /** Every right's bit. */
    public static final int ALL = 31;

    /** Validates a region access mask; returns it. @throws IllegalArgumentException naming the broken rule */
    public static int validateRegion(int mask) {
        if ((mask & ~ALL) != 0) {
            throw new IllegalArgumentException("unknown access bits 0x" + Integer.toHexString(mask & ~ALL));
        }
        if ((REMOTE_WRITE.in(mask) || REMOTE_ATOMIC.in(mask)) && !LOCAL_WRITE.in(mask)) {
            throw new IllegalArgumentException("REMOTE_WRITE/REMOTE_ATOMIC require LOCAL_WRITE");
        }
        return mask;
    }

    /** Validates a memory-window access mask (remote rights only); returns it. */
    public static int validateWindow(int mask) {
        if ((mask & ~(REMOTE_READ.bit | REMOTE_WRITE.bit | REMOTE_ATOMIC.bit)) != 0) {
            throw new IllegalArgumentException("a memory window carries only REMOTE_READ/REMOTE_WRITE/REMOTE_ATOMIC");
        }
        return mask;
    }

    /** Human-readable form of a mask, e.g. {@code LOCAL_WRITE|REMOTE_READ}. */
    public static String toString(int mask) {
        StringBuilder sb = new StringBuilder();
        for (Access a : values()) {
            if (a.in(mask)) {
                sb.append(sb.length() == 0 ? "" : "|").append(a.name());
            }
        }
        return sb.length() == 0 ? "NONE" : sb.toString();
    }
}
