package io.jrnic.verbs;

import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.ConnectRequestSpi;
import io.jrnic.verbs.spi.ConnectionSpi;
import io.jrnic.verbs.spi.ConnectionUpcalls;
import io.jrnic.verbs.spi.DeviceSpi;
import io.jrnic.verbs.spi.DeviceUpcalls;
import io.jrnic.verbs.spi.ListenerSpi;
import io.jrnic.verbs.spi.ListenerUpcalls;
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
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TEST DOUBLE. An in-memory provider that exercises the API plumbing: it executes SEND, RDMA WRITE
 * and RDMA READ synchronously between two QPs "connected" in the same JVM, with an STag table and
 * access checks, and records the order in which SPI objects are closed. Not a model of iWARP
 * timing; the real engine is rnic-soft.
 */
public final class FakeProvider implements RdmaProvider {
    /** Attributes the next opened device reports (tests may replace it). */
    static volatile DeviceAttributes nextAttributes = DeviceAttributes.builder().maxMw(16)
            .capability(DeviceCapability.ATOMICS, true).capability(DeviceCapability.IMMEDIATE_DATA, true)
            .capability(DeviceCapability.MEMORY_WINDOW_TYPE_1, true)
            .capability(DeviceCapability.MEMORY_WINDOW_TYPE_2, true).build();
    /** Every device opened, newest last. */
    static final List<FakeDevice> DEVICES = Collections.synchronizedList(new ArrayList<>());
    static final Map<InetSocketAddress, FakeListener> LISTENERS = new ConcurrentHashMap<>();

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

    /** Executes work synchronously in postSend when {@link #autoExecute} is on; otherwise holds it. */
    static final class FakeQp implements QpSpi {
        final FakeDevice dev;
        final FakePd pd;
        final QpSpec spec;
        final QpUpcalls up;
        final ArrayDeque<SendWr> held = new ArrayDeque<>();
        final ArrayDeque<RecvWr> rq = new ArrayDeque<>();
        final List<QpTrigger> modifies = new ArrayList<>();
        volatile boolean autoExecute = true;
        volatile FakeQp peer;
        volatile FakeConnection conn;
        /** Calls of {@link #progress()} (a CQ let this QP read its stream on the polling thread). */
        final java.util.concurrent.atomic.AtomicInteger progressCalls = new java.util.concurrent.atomic.AtomicInteger();
        /** What {@link #inputWaiter()} offers (null: none, as a provider without one). */
        volatile io.jrnic.verbs.spi.InputWaiter waiter;

        FakeQp(FakeDevice dev, FakePd pd, QpSpec spec, QpUpcalls up) {
            this.dev = dev;
            this.pd = pd;
            this.spec = spec;
            this.up = up;
        }

        @Override
        public void postSend(SendWr[] wrs, int offset, int count) {
            for (int i = 0; i < count; i++) {
                held.addLast(wrs[offset + i]);
            }
            if (autoExecute) {
                executeAll();
            }
        }

        @Override
        public synchronized void postRecv(RecvWr[] wrs, int offset, int count) {
            for (int i = 0; i < count; i++) {
                rq.addLast(wrs[offset + i]);
            }
        }

        @Override
        public boolean progress() {
            progressCalls.incrementAndGet();
            return false;
        }

        @Override
        public io.jrnic.verbs.spi.InputWaiter inputWaiter() {
            return waiter;
        }

        synchronized RecvWr takeRecv() {
            if (spec.srq() != null) {
                return ((FakeSrq) spec.srq()).take();
            }
            return rq.pollFirst();
        }

        /** Executes every held send WR in order. */
        void executeAll() {
            SendWr wr;
            while (up.state() == QpState.RTS && (wr = held.pollFirst()) != null) {
                execute(wr);
            }
        }

        private void execute(SendWr wr) {
            FakeQp p = peer;
            switch (wr.opcode()) {
                case SEND, SEND_WITH_SE, SEND_WITH_INVALIDATE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA -> {
                    RecvWr r = p.takeRecv();
                    if (r == null) {
                        fail(wr, new TerminateInfo(1, 2, 0x02, true));
                        return;
                    }
                    byte[] data = gather(wr);
                    if (data.length > r.totalLength()) {
                        p.up.recvDone(r, new Completion().status(CompletionStatus.LOCAL_LENGTH_ERROR));
                        fail(wr, new TerminateInfo(1, 2, 0x05, true));
                        return;
                    }
                    scatter(r, data);
                    Completion c = new Completion().byteLength(data.length).solicited(wr.isSolicited());
                    if (wr.opcode() == WrOpcode.IMMEDIATE_DATA) {
                        c.opcode(CompletionOpcode.RECV_IMMEDIATE).immediateData(wr.immediateData());
                    }
                    if (wr.opcode().invalidates()) {
                        c.invalidatedStag(wr.invalidateStag());
                    }
                    p.up.recvDone(r, c);
                    up.sendDone(wr);
                }
                case RDMA_WRITE -> {
                    FakeMr target = p.check(wr.remoteStag(), wr.remoteTo(), wr.totalLength(), Access.REMOTE_WRITE);
                    if (target == null) {
                        fail(wr, new TerminateInfo(1, 1, 0x00, true));
                        return;
                    }
                    byte[] data = gather(wr);
                    target.memory.view().setBytes((int) (wr.remoteTo() - target.base), data);
                    up.sendDone(wr);
                }
                case RDMA_READ -> {
                    FakeMr src = p.check(wr.remoteStag(), wr.remoteTo(), wr.totalLength(), Access.REMOTE_READ);
                    if (src == null) {
                        fail(wr, new TerminateInfo(0, 1, 0x00, true));
                        return;
                    }
                    byte[] data = new byte[(int) wr.totalLength()];
                    src.memory.view().getBytes((int) (wr.remoteTo() - src.base), data);
                    int pos = 0;
                    for (int i = 0; i < wr.sgeCount(); i++) {
                        wr.sgeRegion(i).memory().view().setBytes(wr.sgeOffset(i), data, pos, wr.sgeLength(i));
                        pos += wr.sgeLength(i);
                    }
                    up.sendDone(wr);
                }
                default -> up.sendDone(wr);
            }
        }

        /** Remote access check in the reference order: valid STag, key, PD, right, bounds. */
        FakeMr check(int stag, long to, long len, Access right) {
            FakeMr mr = dev.tpt.get(STag.index(stag));
            if (mr == null || !mr.valid || mr.stag != stag || mr.pd != pd || !right.in(mr.access)) {
                return null;
            }
            if (to < mr.base || to + len > mr.base + mr.length()) {
                return null;
            }
            return mr;
        }

        private void fail(SendWr wr, TerminateInfo t) {
            up.sendDone(wr, new Completion().status(t.toStatus()).terminate(t));
            up.transition(QpTrigger.TERMINATE_RECEIVED, t);
            held.clear();
            up.flushAll();
        }

        static byte[] gather(SendWr wr) {
            byte[] out = new byte[(int) wr.totalLength()];
            int pos = 0;
            for (int i = 0; i < wr.sgeCount(); i++) {
                wr.sgeRegion(i).memory().view().getBytes(wr.sgeOffset(i), out, pos, wr.sgeLength(i));
                pos += wr.sgeLength(i);
            }
            return out;
        }

        static void scatter(RecvWr r, byte[] data) {
            int pos = 0;
            for (int i = 0; i < r.sgeCount() && pos < data.length; i++) {
                int n = Math.min(r.sgeLength(i), data.length - pos);
                r.sgeRegion(i).memory().view().setBytes(r.sgeOffset(i), data, pos, n);
                pos += n;
            }
        }

        @Override
        public void modify(QpTrigger consumerTrigger) {
            modifies.add(consumerTrigger);
            if (consumerTrigger == QpTrigger.MODIFY_TO_ERROR) {
                held.clear();
                synchronized (this) {
                    rq.clear();
                }
                up.flushAll();
            }
        }

        @Override
        public void close() {
            dev.closed.add("qp");
        }
    }

    static final class FakeListener implements ListenerSpi {
        final InetSocketAddress addr;
        final ListenerUpcalls up;
        final ConnectOptions options;

        FakeListener(InetSocketAddress addr, ConnectOptions options, ListenerUpcalls up) {
            this.addr = addr;
            this.options = options;
            this.up = up;
        }

        @Override
        public InetSocketAddress localAddress() {
            return addr;
        }

        @Override
        public void close() {
            LISTENERS.remove(addr, this);
        }
    }

    static final class FakeConnection implements ConnectionSpi {
        final InetSocketAddress local;
        final FakeQp qp;
        final ConnectionUpcalls up;
        volatile FakeConnection other;
        volatile boolean established;

        FakeConnection(InetSocketAddress local, FakeQp qp, ConnectionUpcalls up) {
            this.local = local;
            this.qp = qp;
            this.up = up;
        }

        @Override
        public InetSocketAddress localAddress() {
            return local;
        }

        @Override
        public void disconnect() {
            if (!established) {
                abort();
                return;
            }
            for (FakeConnection c : new FakeConnection[] {this, other}) {
                if (c != null && c.established) {
                    c.established = false;
                    c.qp.up.transition(QpTrigger.CLOSE_STARTED, null);
                    c.qp.up.transition(QpTrigger.CLOSE_COMPLETED, null);
                    c.up.disconnected();
                }
            }
        }

        @Override
        public void abort() {
            if (established) {
                established = false;
                if (qp.up.state() == QpState.RTS) {
                    qp.up.transition(QpTrigger.LLP_ERROR, null);
                    qp.up.flushAll();
                }
                up.disconnected();
            }
        }
    }

    static final class FakeCm implements CmSpi {
        final FakeDevice dev;
        static int nextPort = 40000;

        FakeCm(FakeDevice dev) {
            this.dev = dev;
        }

        @Override
        public ListenerSpi listen(InetSocketAddress local, ConnectOptions options, ListenerUpcalls up) {
            InetSocketAddress a = local.getPort() == 0 ? new InetSocketAddress(local.getAddress(), nextPort++) : local;
            FakeListener l = new FakeListener(a, options, up);
            if (LISTENERS.putIfAbsent(a, l) != null) {
                throw new java.io.UncheckedIOException(new java.net.BindException("in use: " + a));
            }
            return l;
        }

        @Override
        public ConnectionSpi connect(InetSocketAddress remote, QpSpi qp, ConnectOptions options, ConnectionUpcalls up) {
            FakeQp active = (FakeQp) qp;
            InetSocketAddress local = new InetSocketAddress(remote.getAddress(), nextPort++);
            FakeConnection conn = new FakeConnection(local, active, up);
            FakeListener l = LISTENERS.get(remote);
            if (l == null) {
                up.failed(CmEventType.UNREACHABLE, new java.net.ConnectException("refused: " + remote));
                return conn;
            }
            ConnectionParams offered = new ConnectionParams(options.mpaRevision(), options.crc(), options.markers(),
                    options.ird(), options.ord(), options.isPeerToPeer(), options.rtrTypes(), options.privateData());
            l.up.connectRequest(new ConnectRequestSpi() {
                @Override
                public InetSocketAddress localAddress() {
                    return remote;
                }

                @Override
                public InetSocketAddress remoteAddress() {
                    return local;
                }

                @Override
                public ConnectionParams offered() {
                    return offered;
                }

                @Override
                public ConnectionSpi accept(QpSpi pqp, AcceptOptions ao, ConnectionUpcalls pup) {
                    FakeQp passive = (FakeQp) pqp;
                    FakeConnection pc = new FakeConnection(remote, passive, pup);
                    pc.other = conn;
                    conn.other = pc;
                    active.peer = passive;
                    passive.peer = active;
                    boolean crc = options.crc() || l.options.crc();
                    int pIrd = ao.ird() < 0 ? l.options.ird() : ao.ird();
                    int pOrd = Math.min(ao.ord() < 0 ? l.options.ord() : ao.ord(), options.ird());
                    passive.up.transition(QpTrigger.CONNECTED, null);
                    active.up.transition(QpTrigger.CONNECTED, null);
                    pc.established = true;
                    conn.established = true;
                    pup.established(new ConnectionParams(options.mpaRevision(), crc, false, Math.max(pIrd, options.ord()),
                            pOrd, false, Set.of(), options.privateData()));
                    up.established(new ConnectionParams(options.mpaRevision(), crc, false, options.ird(),
                            Math.min(options.ord(), Math.max(pIrd, options.ord())), false, Set.of(), ao.privateData()));
                    return pc;
                }

                @Override
                public void reject(byte[] privateData) {
                    up.rejected(privateData);
                }
            });
            return conn;
        }

        @Override
        public void close() {
            dev.closed.add("cm");
        }
    }
}
