package io.jrnic.verbs;

import io.jrnic.verbs.spi.MrSpi;

/**
 * A registered memory region (RFC 5040 section 2 "Tagged Buffer"; reference section 5). Closing it
 * deregisters: the STag stops working at once, and a registered ByteBuf is released.
 * Offsets given to {@link #sge} are byte offsets from the first registered byte, whatever the
 * tagged-offset model; {@link #address()} is the TO of that byte.
 */
public final class MemoryRegion extends Resource {
    private final ProtectionDomain pd;
    private final MrSpi spi;
    private final Memory registered;
    private final int maxLength;

    MemoryRegion(ProtectionDomain pd, MrSpi spi, Memory registered, int maxLength) {
        super(pd, "MemoryRegion");
        this.pd = pd;
        this.spi = spi;
        this.registered = registered;
        this.maxLength = maxLength;
    }

    @Override
    int closeRank() {
        return 4;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    /** Current STag (its key changes with fast registration). */
    public int stag() {
        return spi.stag();
    }

    /** False once invalidated, or before a fast-reg region's REG_MR completed, or when closed. */
    public boolean isValid() {
        return !isClosedFlag() && spi.isValid();
    }

    /** Registered bytes. */
    public int length() {
        return spi.length();
    }

    /** TO of the first byte. */
    public long address() {
        return spi.address();
    }

    public int accessMask() {
        return spi.access();
    }

    /** The memory (null for a fast-reg region not registered yet). */
    public Memory memory() {
        return spi.memory();
    }

    /** True for regions from {@link ProtectionDomain#allocateFastRegMr}. */
    public boolean isFastReg() {
        return maxLength > 0;
    }

    /** Largest memory a REG_MR may map (0 for ordinary regions). */
    public int maxFastRegLength() {
        return maxLength;
    }

    /** An SGE over {@code [offset, offset+length)}. @throws IndexOutOfBoundsException outside the region */
    public Sge sge(int offset, int length) {
        return new Sge(this, offset, length);
    }

    /** An SGE over the whole region. */
    public Sge sge() {
        return new Sge(this, 0, length());
    }

    /** STag, base TO and length for a peer. @throws IllegalStateException without any remote right, or invalid */
    public RemoteBuffer advertise() {
        return advertise(0, length());
    }

    /** A sub-range for a peer. */
    public RemoteBuffer advertise(int offset, int length) {
        checkOpen();
        checkRange(offset, length);
        int a = accessMask();
        if (!Access.REMOTE_READ.in(a) && !Access.REMOTE_WRITE.in(a) && !Access.REMOTE_ATOMIC.in(a)) {
            throw new IllegalStateException("region has no remote access right to advertise: " + Access.toString(a));
        }
        if (!spi.isValid()) {
            throw new IllegalStateException("region is not valid (invalidated or not registered)");
        }
        return new RemoteBuffer(stag(), address() + offset, length);
    }

    void checkRange(int offset, int length) {
        checkOpen();
        if (offset < 0 || length < 0 || (long) offset + length > length()) {
            throw new IndexOutOfBoundsException("[" + offset + ", " + ((long) offset + length)
                    + ") outside region of " + length() + " bytes");
        }
    }

    @Override
    void release() {
        try {
            spi.close();
        } finally {
            if (registered != null) {
                registered.release();
            }
            pd.device().mrs.decrementAndGet();
        }
    }

    @Override
    public String toString() {
        return String.format("MemoryRegion[stag=0x%08x len=%d to=0x%x %s]", stag(), length(), address(),
                Access.toString(accessMask()));
    }
}
