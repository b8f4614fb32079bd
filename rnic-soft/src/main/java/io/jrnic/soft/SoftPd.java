package io.jrnic.soft;

import io.jrnic.soft.mem.SoftRegion;
import io.jrnic.verbs.MemoryWindow;
import io.jrnic.verbs.spi.MrSpec;
import io.jrnic.verbs.spi.MrSpi;
import io.jrnic.verbs.spi.MwSpi;
import io.jrnic.verbs.spi.PdSpi;
import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import io.jrnic.verbs.spi.QpUpcalls;
import io.jrnic.verbs.spi.SrqSpi;
import io.jrnic.verbs.spi.SrqUpcalls;

/** A protection domain: its id is the DDP stream association checked on every remote access (RFC 5040 section 6.4). */
final class SoftPd implements PdSpi {
    /** Address-based regions without a base get one 4 GiB slot per STag index: no wrap, easy to read. */
    private static final long PROVIDER_BASE = 0x1000_0000_0000L;

    final SoftDevice device;
    final long id;

    SoftPd(SoftDevice device, long id) {
        this.device = device;
        this.id = id;
    }

    @Override
    public MrSpi register(MrSpec spec) {
        SoftRegion r = device.table().allocate(SoftRegion.Kind.REGION, id, spec.key());
        long base = spec.zeroBased() ? 0
                : spec.base() == MrSpec.PROVIDER_CHOOSES_BASE ? PROVIDER_BASE + ((long) r.index() << 32) : spec.base();
        try {
            r.map(spec.memory().view(), 0, spec.memory().length(), base, spec.access(), r.stag() & 0xFF, null);
        } catch (IllegalArgumentException e) {
            r.close();
            throw e;
        }
        return new SoftMr(r, spec.memory());
    }

    @Override
    public MrSpi allocateFastRegMr(int maxLength, int key) {
        return new SoftMr(device.table().allocate(SoftRegion.Kind.FAST_REG, id, key), null);
    }

    @Override
    public MwSpi allocateMw(MemoryWindow.Type type, int key) {
        SoftRegion w = device.table().allocate(SoftRegion.Kind.WINDOW, id, key);
        return new MwSpi() {
            @Override
            public int stag() {
                return w.stag();
            }

            @Override
            public boolean isBound() {
                return w.valid();
            }

            @Override
            public void close() {
                w.close();
            }
        };
    }

    @Override
    public QpSpi createQp(QpSpec spec, QpUpcalls upcalls) {
        return new SoftQp(this, spec, upcalls);
    }

    @Override
    public SrqSpi createSrq(int maxWr, int maxSge, SrqUpcalls upcalls) {
        return new SoftSrq(device.table());
    }

    @Override
    public void close() {
        // regions and QPs were closed by the API first
    }
}
