package io.jrnic.verbs;

import io.jrnic.verbs.spi.MrSpec;
import io.jrnic.verbs.spi.PdSpi;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A protection domain: QPs may only touch regions and windows of their own PD (RFC 5040 section
 * 6.4, "STag not associated with this stream"). Closing it closes its QPs, SRQs, windows and regions.
 */
public final class ProtectionDomain extends Resource {
    private final RdmaDevice device;
    private final PdSpi spi;

    ProtectionDomain(RdmaDevice device, PdSpi spi) {
        super(device, "ProtectionDomain");
        this.device = device;
        this.spi = spi;
    }

    @Override
    int closeRank() {
        return 1;
    }

    public RdmaDevice device() {
        return device;
    }

    /** Registers the whole array. */
    public MemoryRegion register(byte[] array, Access... access) {
        return register(Memory.of(array), MrOptions.of(access));
    }

    /** Registers the buffer's whole capacity (heap or direct). */
    public MemoryRegion register(ByteBuffer buffer, Access... access) {
        return register(Memory.of(buffer), MrOptions.of(access));
    }

    /** Registers the ByteBuf's whole capacity; it is retained until the region is closed. */
    public MemoryRegion register(ByteBuf buf, Access... access) {
        return register(Memory.of(buf), MrOptions.of(access));
    }

    public MemoryRegion register(Memory memory, Access... access) {
        return register(memory, MrOptions.of(access));
    }

    /**
     * Registers {@code memory}.
     * @throws IllegalArgumentException LOCAL_WRITE/REMOTE_WRITE/REMOTE_ATOMIC on read-only memory,
     *         or access rule broken ({@link Access#validateRegion})
     * @throws IllegalStateException device region limit reached
     */
    public MemoryRegion register(Memory memory, MrOptions options) {
        checkOpen();
        int a = options.accessMask();
        if (!memory.isWritable() && (a & (Access.LOCAL_WRITE.bit() | Access.REMOTE_WRITE.bit() | Access.REMOTE_ATOMIC.bit())) != 0) {
            throw new IllegalArgumentException("read-only memory cannot be registered with " + Access.toString(a));
        }
        RdmaDevice.reserve(device.mrs, device.attributes().maxMr(), "memory regions");
        memory.retain();
        try {
            return new MemoryRegion(this, spi.register(new MrSpec(memory, a, options.isZeroBased(), options.base(),
                    options.key())), memory, 0);
        } catch (RuntimeException e) {
            memory.release();
            device.mrs.decrementAndGet();
            throw e;
        }
    }

    /** A region for fast registration (REG_MR work requests) of up to {@code maxLength} bytes. */
    public MemoryRegion allocateFastRegMr(int maxLength) {
        checkOpen();
        if (!device.attributes().has(DeviceCapability.FAST_REGISTRATION)) {
            throw new UnsupportedOperationException("device has no fast registration");
        }
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be positive");
        }
        RdmaDevice.reserve(device.mrs, device.attributes().maxMr(), "memory regions");
        try {
            return new MemoryRegion(this, spi.allocateFastRegMr(maxLength, MrSpec.PROVIDER_KEY), null, maxLength);
        } catch (RuntimeException e) {
            device.mrs.decrementAndGet();
            throw e;
        }
    }

    /** An unbound memory window. @throws UnsupportedOperationException when the device lacks that type */
    public MemoryWindow allocateMw(MemoryWindow.Type type) {
        checkOpen();
        DeviceCapability cap = type == MemoryWindow.Type.TYPE_1 ? DeviceCapability.MEMORY_WINDOW_TYPE_1
                : DeviceCapability.MEMORY_WINDOW_TYPE_2;
        if (!device.attributes().has(cap)) {
            throw new UnsupportedOperationException("device has no " + type + " memory windows");
        }
        RdmaDevice.reserve(device.mws, device.attributes().maxMw(), "memory windows");
        try {
            return new MemoryWindow(this, type, spi.allocateMw(type, MrSpec.PROVIDER_KEY));
        } catch (RuntimeException e) {
            device.mws.decrementAndGet();
            throw e;
        }
    }

    /** A reliable-connected QP in IDLE. @throws IllegalArgumentException for limits or foreign CQ/SRQ */
    public QueuePair createQp(QpInit init) {
        checkOpen();
        return QueuePair.create(this, init);
    }

    /** A shared receive queue. */
    public SharedReceiveQueue createSrq(int maxWr, int maxSge, Object context) {
        checkOpen();
        return SharedReceiveQueue.create(this, maxWr, maxSge, context);
    }

    PdSpi spi() {
        return spi;
    }

    @Override
    void release() {
        try {
            spi.close();
        } finally {
            device.pds.decrementAndGet();
        }
    }
}
