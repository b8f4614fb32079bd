package io.jrnic.verbs;

import io.jrnic.verbs.spi.DeviceSpi;
import io.jrnic.verbs.spi.RdmaProvider;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An open RNIC: root of the resource tree. Closing it closes, in order, its connection managers,
 * protection domains (and their QPs, SRQs, windows, regions), CQs, completion channels, the event
 * thread, and finally the provider device.
 */
public final class RdmaDevice extends Resource {
    private final RdmaProvider provider;
    private final String name;
    private final DeviceSpi spi;
    private final DeviceAttributes attributes;
    private final EventDispatcher dispatcher;
    private volatile Consumer<AsyncEvent> asyncHandler;
    final AtomicInteger pds = new AtomicInteger();
    final AtomicInteger cqs = new AtomicInteger();
    final AtomicInteger qps = new AtomicInteger();
    final AtomicInteger mrs = new AtomicInteger();
    final AtomicInteger mws = new AtomicInteger();
    final AtomicInteger srqs = new AtomicInteger();
    /** QP numbers of this device (for JMX names and JFR events). */
    final AtomicInteger qpNumbers = new AtomicInteger();
    private final javax.management.ObjectName mbean;

    RdmaDevice(RdmaProvider provider, String name) throws IOException {
        super(null, "RdmaDevice");
        this.provider = provider;
        this.name = name;
        this.dispatcher = new EventDispatcher(provider.name() + "-" + name);
        this.spi = provider.open(name, type -> raise(type, this, null, null));
        this.attributes = spi.attributes();
        this.mbean = io.jrnic.verbs.observe.Jmx.registerDevice(name, this::stats);
    }

    /** A snapshot of the device's counters (all its QPs, live and closed, plus device-level ones). */
    public Stats stats() {
        return spi.stats();
    }

    /** The JMX name this device is registered under, or null (JMX disabled). */
    public javax.management.ObjectName objectName() {
        return mbean;
    }

    public String name() {
        return name;
    }

    public String providerName() {
        return provider.name();
    }

    public DeviceAttributes attributes() {
        return attributes;
    }

    /** Sets the handler for every async event of this device and its resources (runs on the event thread). */
    public RdmaDevice onAsyncEvent(Consumer<AsyncEvent> handler) {
        this.asyncHandler = handler;
        return this;
    }

    public ProtectionDomain allocatePd() {
        checkOpen();
        reserve(pds, attributes.maxPd(), "protection domains");
        try {
            return new ProtectionDomain(this, spi.allocatePd());
        } catch (RuntimeException e) {
            pds.decrementAndGet();
            throw e;
        }
    }

    public CompletionQueue createCq(int capacity) {
        return createCq(capacity, null, null);
    }

    /**
     * A CQ of {@code capacity} entries notifying {@code channel}. (There is no {@code createCq(int, Object)}: a
     * context goes through {@link #createCq(CqInit)}, so that a channel is never bound as a context.)
     */
    public CompletionQueue createCq(int capacity, CompletionChannel channel) {
        return createCq(capacity, channel, null);
    }

    /** A CQ as {@code init} describes: capacity, channel (may be null), context (may be null). */
    public CompletionQueue createCq(CqInit init) {
        return createCq(init.capacity, init.channel, init.context);
    }

    /**
     * A CQ of {@code capacity} entries (1..maxCqe), notifying {@code channel} (may be null).
     * @throws IllegalArgumentException capacity out of range, channel of another device
     */
    public CompletionQueue createCq(int capacity, CompletionChannel channel, Object context) {
        checkOpen();
        if (capacity < 1 || capacity > attributes.maxCqe()) {
            throw new IllegalArgumentException("CQ capacity " + capacity + " outside 1.." + attributes.maxCqe());
        }
        if (channel != null) {
            channel.checkOpen();
            if (channel.device() != this) {
                throw new IllegalArgumentException("channel belongs to another device");
            }
        }
        reserve(cqs, attributes.maxCq(), "completion queues");
        return new CompletionQueue(this, capacity, channel, context);
    }

    public CompletionChannel createCompletionChannel() {
        checkOpen();
        return new CompletionChannel(this);
    }

    /** A new connection manager (rdma_cm "event channel" + ids) for this device. */
    public ConnectionManager connectionManager() {
        checkOpen();
        return new ConnectionManager(this, spi.connectionManager());
    }

    static void reserve(AtomicInteger counter, int max, String what) {
        if (counter.incrementAndGet() > max) {
            counter.decrementAndGet();
            throw new IllegalStateException("device limit reached: " + max + " " + what);
        }
    }

    EventDispatcher dispatcher() {
        return dispatcher;
    }

    void raise(AsyncEventType type, Object resource, Object context, TerminateInfo t) {
        Consumer<AsyncEvent> h = asyncHandler;
        if (h != null) {
            AsyncEvent ev = new AsyncEvent(type, resource, context, t);
            dispatcher.dispatch(() -> h.accept(ev));
        }
    }

    @Override
    void release() {
        io.jrnic.verbs.observe.Jmx.unregister(mbean);
        try {
            spi.close();
        } finally {
            dispatcher.shutdown();
        }
    }

    @Override
    public String toString() {
        return "RdmaDevice[" + provider.name() + "/" + name + "]";
    }
}
