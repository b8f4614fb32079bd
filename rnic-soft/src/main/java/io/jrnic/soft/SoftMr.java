package io.jrnic.soft;

import io.jrnic.soft.mem.SoftRegion;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.spi.MrSpi;

/** A memory region's provider part: a {@link SoftRegion} of the device's table, and the memory it maps. */
final class SoftMr implements MrSpi {
    final SoftRegion region;
    volatile Memory memory;

    SoftMr(SoftRegion region, Memory memory) {
        this.region = region;
        this.memory = memory;
        region.attach(this);
    }

    @Override
    public int stag() {
        return region.stag();
    }

    @Override
    public boolean isValid() {
        return region.valid();
    }

    /** Fast registration mapped {@code m} into this region. */
    void remap(Memory m) {
        memory = m;
    }

    @Override
    public Memory memory() {
        return memory;
    }

    @Override
    public int length() {
        return memory == null ? 0 : (int) region.length();
    }

    @Override
    public long address() {
        return region.baseTaggedOffset();
    }

    @Override
    public int access() {
        return region.access();
    }

    @Override
    public void close() {
        region.close();
    }
}
