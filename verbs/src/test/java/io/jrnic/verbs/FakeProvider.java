package io.jrnic.verbs;

import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.DeviceSpi;
import io.jrnic.verbs.spi.DeviceUpcalls;
import io.jrnic.verbs.spi.MrSpec;
import io.jrnic.verbs.spi.MrSpi;
import io.jrnic.verbs.spi.MwSpi;
import io.jrnic.verbs.spi.PdSpi;
import io.jrnic.verbs.spi.QpSpec;
import io.jrnic.verbs.spi.QpSpi;
import io.jrnic.verbs.spi.QpUpcalls;
import io.jrnic.verbs.spi.RdmaProvider;
import io.jrnic.verbs.spi.SrqSpi;
import io.jrnic.verbs.spi.SrqUpcalls;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TEST DOUBLE. An in-memory provider that exercises the API plumbing: it executes SEND, RDMA WRITE
 * and RDMA READ synchronously between two QPs "connected" in the same JVM, with an STag table and
 * access checks, and records the order in which SPI objects are closed. Not a model of iWARP
 * timing; the real engine is rnic-soft. The QP's execution is {@link FakeQp}'s, connection set-up {@link FakeCm}'s.
 */
public final class FakeProvider implements RdmaProvider {
    /** Attributes the next opened device reports (tests may replace it). */
    static volatile DeviceAttributes nextAttributes = DeviceAttributes.builder().maxMw(16)
            .capability(DeviceCapability.ATOMICS, true).capability(DeviceCapability.IMMEDIATE_DATA, true)
            .capability(DeviceCapability.MEMORY_WINDOW_TYPE_1, true)
            .capability(DeviceCapability.MEMORY_WINDOW_TYPE_2, true).build();
    /** Every device opened, newest last. */
    static final List<FakeDevice> DEVICES = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public List<String> devices() {
        return List.of("fake0", "fake1");
    }

    @Override
    public DeviceSpi open(String device, DeviceUpcalls upcalls) {
        FakeDevice d = new FakeDevice(nextAttributes, upcalls);
        DEVICES.add(d);
        return d;
    }

    static FakeDevice last() {
        return DEVICES.get(DEVICES.size() - 1);
    }

    static final class FakeDevice implements DeviceSpi {
        final DeviceAttributes attrs;
        final DeviceUpcalls upcalls;
        final List<String> closed = Collections.synchronizedList(new ArrayList<>());
        final Map<Integer, FakeMr> tpt = new ConcurrentHashMap<>();
        final Map<QueuePair, FakeQp> qps = new ConcurrentHashMap<>();
        int nextIndex = 1;

        FakeDevice(DeviceAttributes attrs, DeviceUpcalls upcalls) {
            this.attrs = attrs;
            this.upcalls = upcalls;
        }

        FakeQp qp(QueuePair qp) {
            return qps.get(qp);
        }

        @Override
        public DeviceAttributes attributes() {
            return attrs;
        }

        @Override
        public PdSpi allocatePd() {
            return new FakePd(this);
        }

        @Override
        public CmSpi connectionManager() {
            return new FakeCm(this);
        }

        @Override
        public void close() {
            closed.add("device");
        }
    }

    static final class FakePd implements PdSpi {
        final FakeDevice dev;

        FakePd(FakeDevice dev) {
            this.dev = dev;
        }

        /** The fake draws no random keys: the provider's choice is key 0. */
        private static int key(int key) {
            return key == MrSpec.PROVIDER_KEY ? 0 : key;
        }

        @Override
        public MrSpi register(MrSpec spec) {
            long base = spec.zeroBased() ? 0 : spec.base() == MrSpec.PROVIDER_CHOOSES_BASE ? 0x1000_0000L * dev.nextIndex : spec.base();
            FakeMr mr = new FakeMr(dev, this, dev.nextIndex++, key(spec.key()), spec.memory(), spec.access(), base, true);
            dev.tpt.put(STag.index(mr.stag()), mr);
            return mr;
        }

        @Override
        public MrSpi allocateFastRegMr(int maxLength, int key) {
            FakeMr mr = new FakeMr(dev, this, dev.nextIndex++, key(key), null, 0, 0, false);
            dev.tpt.put(STag.index(mr.stag()), mr);
            return mr;
        }

        @Override
        public MwSpi allocateMw(MemoryWindow.Type type, int key) {
            int idx = dev.nextIndex++;
            return new MwSpi() {
                int stag = STag.compose(idx, key(key));
                boolean bound;

                @Override
                public int stag() {
                    return stag;
                }

                @Override
                public boolean isBound() {
                    return bound;
                }

                @Override
                public void close() {
                    dev.closed.add("mw");
                }
            };
        }

        @Override
        public QpSpi createQp(QpSpec spec, QpUpcalls upcalls) {
            FakeQp q = new FakeQp(dev, this, spec, upcalls);
            dev.qps.put(upcalls.queuePair(), q);
            return q;
        }

        @Override
        public SrqSpi createSrq(int maxWr, int maxSge, SrqUpcalls upcalls) {
            return new FakeSrq(dev);
        }

        @Override
        public void close() {
            dev.closed.add("pd");
        }
    }

    static final class FakeMr implements MrSpi {
        final FakeDevice dev;
        final FakePd pd;
        volatile int stag;
        volatile Memory memory;
        volatile int access;
        volatile long base;
        volatile boolean valid;

        FakeMr(FakeDevice dev, FakePd pd, int index, int key, Memory memory, int access, long base, boolean valid) {
            this.dev = dev;
            this.pd = pd;
            this.stag = STag.compose(index, key);
            this.memory = memory;
            this.access = access;
            this.base = base;
            this.valid = valid;
        }

        @Override
        public int stag() {
            return stag;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public Memory memory() {
            return memory;
        }

        @Override
        public int length() {
            return memory == null ? 0 : memory.length();
        }

        @Override
        public long address() {
            return base;
        }

        @Override
        public int access() {
            return access;
        }

        @Override
        public void close() {
            valid = false;
            dev.tpt.remove(STag.index(stag));
            dev.closed.add("mr");
        }
    }

    static final class FakeSrq implements SrqSpi {
        final FakeDevice dev;
        final ArrayDeque<RecvWr> queue = new ArrayDeque<>();

        FakeSrq(FakeDevice dev) {
            this.dev = dev;
        }

        @Override
        public synchronized void postRecv(RecvWr[] wrs, int offset, int count) {
            for (int i = 0; i < count; i++) {
                queue.addLast(wrs[offset + i]);
            }
        }

        synchronized RecvWr take() {
            return queue.pollFirst();
        }

        @Override
        public void close() {
            dev.closed.add("srq");
        }
    }
}
