package io.jrnic.soft;

import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.net.SoftTransport;
import io.jrnic.verbs.DeviceAttributes;
import io.jrnic.verbs.DeviceCapability;
import io.jrnic.verbs.Stats;
import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.DeviceSpi;
import io.jrnic.verbs.spi.DeviceUpcalls;
import io.jrnic.verbs.spi.PdSpi;
import java.util.concurrent.atomic.AtomicLong;

/** One soft RNIC: an STag table, an event loop group, limits close to Linux siw's (plus RFC 7306 and markers). */
final class SoftDevice implements DeviceSpi {
    /** QPs per device: no hardware table behind them, and a service may hold many idle connections (perf --scale). */
    static final int MAX_QP = 1 << 16;
    private final DeviceAttributes attributes;
    private final MemoryTable table;
    private final SoftTransport transport;
    private final AtomicLong pdIds = new AtomicLong();
    private final DeviceStats counters = new DeviceStats();

    SoftDevice(String name, int threads, boolean epoll, DeviceUpcalls upcalls) {
        this.transport = new SoftTransport(threads, epoll);
        this.attributes = DeviceAttributes.builder()
                .vendor("jrnic soft RNIC " + name + " (" + transport.transportName() + ")")
                .maxMw(1024)
                .maxQp(MAX_QP)
                .capability(DeviceCapability.SHARED_RECEIVE_QUEUE, true)
                .capability(DeviceCapability.FAST_REGISTRATION, true)
                .capability(DeviceCapability.ATOMICS, true)
                .capability(DeviceCapability.IMMEDIATE_DATA, true)
                .capability(DeviceCapability.MARKERS, true)
                .capability(DeviceCapability.MEMORY_WINDOW_TYPE_1, true)
                .capability(DeviceCapability.MEMORY_WINDOW_TYPE_2, true)
                .build();
        this.table = new MemoryTable(attributes.maxMr() + attributes.maxMw() + 64);
    }

    @Override
    public DeviceAttributes attributes() {
        return attributes;
    }

    MemoryTable table() {
        return table;
    }

    DeviceStats counters() {
        return counters;
    }

    @Override
    public Stats stats() {
        return counters.snapshot();
    }

    SoftTransport transport() {
        return transport;
    }

    @Override
    public PdSpi allocatePd() {
        return new SoftPd(this, pdIds.incrementAndGet());
    }

    @Override
    public CmSpi connectionManager() {
        return new SoftCm(this);
    }

    @Override
    public void close() {
        transport.close();
    }
}
