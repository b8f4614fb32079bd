package io.jrnic.verbs;

import io.jrnic.verbs.FakeProvider.FakeDevice;
import io.jrnic.verbs.spi.CmSpi;
import io.jrnic.verbs.spi.ConnectRequestSpi;
import io.jrnic.verbs.spi.ConnectionSpi;
import io.jrnic.verbs.spi.ConnectionUpcalls;
import io.jrnic.verbs.spi.ListenerSpi;
import io.jrnic.verbs.spi.ListenerUpcalls;
import io.jrnic.verbs.spi.QpSpi;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TEST DOUBLE. {@link FakeProvider}'s connection manager: listeners by address (one table for every fake device in
 * the JVM), and connects that "establish" at once in the same JVM: both QPs go to RTS, each is the other's
 * {@link FakeQp#peer}, and the negotiated parameters are reported to both sides.
 */
final class FakeCm implements CmSpi {
    static final Map<InetSocketAddress, FakeListener> LISTENERS = new ConcurrentHashMap<>();
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
}
