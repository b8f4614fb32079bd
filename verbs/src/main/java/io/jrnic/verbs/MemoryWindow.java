package io.jrnic.verbs;

import io.jrnic.verbs.spi.MwSpi;

/**
 * A memory window (RDMAC verbs section 7.2; RFC 5040 section 2): a narrower, remote-only view of a
 * region with its own STag. Its TOs are the region's TOs. Type 1 windows belong to the PD and are
 * bound with {@link #bind}; type 2 windows are bound with a BIND_MW work request
 * ({@link SendWr#bindWindow}), invalidated by LOCAL_INVALIDATE or a peer's Send with Invalidate.
 * A type 1 window cannot be invalidated (a peer's Send with Invalidate naming it fails with
 * Terminate RDMAP/2/0x09 "STag cannot be invalidated").
 */
public final class MemoryWindow extends Resource {
    /** Window types. */
    public enum Type { TYPE_1, TYPE_2 }

    private final ProtectionDomain pd;
    private final Type type;
    private final MwSpi spi;

    MemoryWindow(ProtectionDomain pd, Type type, MwSpi spi) {
        super(pd, "MemoryWindow");
        this.pd = pd;
        this.type = type;
        this.spi = spi;
    }

    @Override
    int closeRank() {
        return 2;
    }

    public Type type() {
        return type;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public int stag() {
        return spi.stag();
    }

    public boolean isBound() {
        return !isClosedFlag() && spi.isBound();
    }

    /** What a peer will use once a bind of {@code range} with {@code key} completed. */
    public RemoteBuffer remoteBuffer(Sge range, int key) {
        return new RemoteBuffer(STag.withKey(stag(), key), range.region().address() + range.offset(), range.length());
    }

    /**
     * Type 1 bind: posts a BIND_MW on {@code qp}'s send queue (so it is ordered with other sends and
     * completes like one) with the next key. Returns the window as the peer will see it once the bind
     * completed. @throws IllegalStateException for a type 2 window
     */
    public RemoteBuffer bind(QueuePair qp, Sge range, long wrId, boolean signaled, Access... rights) {
        checkOpen();
        if (type != Type.TYPE_1) {
            throw new IllegalStateException("type 2 windows are bound with a BIND_MW work request");
        }
        int key = STag.key(STag.nextKey(stag()));
        SendWr wr = new SendWr(WrOpcode.BIND_MW).id(wrId).signaled(signaled).bind(this, key, Access.mask(rights))
                .local(range);
        qp.postBind(wr);
        return remoteBuffer(range, key);
    }

    @Override
    void release() {
        try {
            spi.close();
        } finally {
            pd.device().mws.decrementAndGet();
        }
    }
}
