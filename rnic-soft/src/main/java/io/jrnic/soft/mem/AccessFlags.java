package io.jrnic.soft.mem;

/**
 * Access bits of a region or window, the same values as {@code io.jrnic.verbs.Access} so that masks
 * pass through unchanged (RFC 5040 section 6.4 checks REMOTE_READ on a Read source and REMOTE_WRITE
 * on a tagged sink; RFC 7306 section 8 checks REMOTE_ATOMIC).
 */
public final class AccessFlags {
    public static final int LOCAL_WRITE = 1;
    public static final int REMOTE_READ = 2;
    public static final int REMOTE_WRITE = 4;
    public static final int REMOTE_ATOMIC = 8;
    public static final int MW_BIND = 16;

    private AccessFlags() {
    }

    public static boolean has(int mask, int bit) {
        return (mask & bit) != 0;
    }
}
