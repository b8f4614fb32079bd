package io.jrnic.verbs.spi;

import io.jrnic.verbs.MemoryWindow;

/** A protection domain. */
public interface PdSpi {
    /**
     * Registers memory: allocate an STag index, combine it with {@code spec.key()}, record memory,
     * access and tagged-offset base. For address-based regions without a base
     * ({@code spec.zeroBased() == false && spec.base() == MrSpec.PROVIDER_CHOOSES_BASE}) the provider
     * picks a base (e.g. the direct buffer address) such that base + length does not wrap.
     */
    MrSpi register(MrSpec spec);

    /** A region for fast registration: valid STag index, no memory, invalid until a REG_MR WR completes. */
    MrSpi allocateFastRegMr(int maxLength, int key);

    /** A memory window of the type, unbound; its STag key starts at {@code key}. */
    MwSpi allocateMw(MemoryWindow.Type type, int key);

    /** A QP in IDLE. */
    QpSpi createQp(QpSpec spec, QpUpcalls upcalls);

    SrqSpi createSrq(int maxWr, int maxSge, SrqUpcalls upcalls);

    /** Called after all children were closed. */
    void close();
}
