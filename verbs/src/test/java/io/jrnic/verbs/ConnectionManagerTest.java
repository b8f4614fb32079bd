package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConnectionManagerTest {

    @Test
    void connectAcceptCarriesPrivateDataAndContextOverIpv6() throws Exception {
        try (RdmaDevice dev = Rdma.open("fake");
             ConnectionManager cm = dev.connectionManager()) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(16);
            MemoryRegion mr = pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
            cm.onEvent(events::add);
            Listener l = cm.listen(new InetSocketAddress("::1", 0), ConnectOptions.defaults());
            CompletableFuture<ConnectRequest> seen = new CompletableFuture<>();
            l.onConnectRequest(req -> {
                seen.complete(req);
                req.accept(pd.createQp(QpInit.rc(cq).context("server")), AcceptOptions.defaults().privateData(mr.advertise()));
            });
            QueuePair qp = pd.createQp(QpInit.rc(cq).context("client"));
            Connection c = cm.connect(l.localAddress(), qp, ConnectOptions.defaults().ird(8).ord(4)
                    .privateData(new byte[] {1, 2, 3})).get(5, TimeUnit.SECONDS);
            ConnectRequest req = seen.get(5, TimeUnit.SECONDS);
            assertArrayEquals(new byte[] {1, 2, 3}, req.privateData());
            assertEquals(8, req.ird());
            assertEquals(4, req.ord());
            assertEquals(2, req.mpaRevision());
            assertFalse(req.crcRequested());
            assertEquals(mr.advertise(), RemoteBuffer.parse(c.peerPrivateData()));
            assertEquals(QpState.RTS, qp.state());
            assertSame(c, qp.connection());
            assertEquals(l.localAddress(), c.remoteAddress());
            assertThrows(IllegalStateException.class, () -> req.reject());
            CmEvent e1 = events.poll(5, TimeUnit.SECONDS);
            CmEvent e2 = events.poll(5, TimeUnit.SECONDS);
            assertEquals(CmEventType.ESTABLISHED, e1.type());
            assertEquals(CmEventType.ESTABLISHED, e2.type());
            assertTrue(java.util.Set.of("client", "server").containsAll(java.util.List.of(e1.context(), e2.context())));
            c.disconnect().get(5, TimeUnit.SECONDS);
            assertEquals(QpState.IDLE, qp.state());
            assertNull(qp.connection());
            assertEquals(Connection.State.DISCONNECTED, c.state());
            assertEquals(CmEventType.DISCONNECTED, events.poll(5, TimeUnit.SECONDS).type());
        }
    }

    @Test
    void rejectionFailsTheFutureWithPrivateData() throws Exception {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ConnectionManager cm = dev.connectionManager();
            ProtectionDomain pd = dev.allocatePd();
            QueuePair qp = pd.createQp(QpInit.rc(dev.createCq(4)));
            Listener l = cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.reject(new byte[] {9}));
            ExecutionException ex = assertThrows(ExecutionException.class,
                    () -> cm.connect(l.localAddress(), qp, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS));
            ConnectionFailedException f = assertInstanceOf(ConnectionFailedException.class, ex.getCause());
            assertEquals(CmEventType.REJECTED, f.type());
            assertArrayEquals(new byte[] {9}, f.privateData());
            assertNull(qp.connection());
            assertEquals(QpState.IDLE, qp.state());
        }
    }

    @Test
    void noListenerIsUnreachable() throws Exception {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ConnectionManager cm = dev.connectionManager();
            QueuePair qp = dev.allocatePd().createQp(QpInit.rc(dev.createCq(4)));
            ExecutionException ex = assertThrows(ExecutionException.class,
                    () -> cm.connect(new InetSocketAddress("127.0.0.1", 1), qp, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS));
            assertEquals(CmEventType.UNREACHABLE, ((ConnectionFailedException) ex.getCause()).type());
        }
    }

    @Test
    void misuseIsRejectedBeforeAnythingIsSent() throws Exception {
        try (Loopback lb = new Loopback()) {
            InetSocketAddress any = new InetSocketAddress("127.0.0.1", 1);
            assertThrows(IllegalStateException.class, () -> lb.cm.connect(any, lb.a, ConnectOptions.defaults()));
            QueuePair broken = lb.pd.createQp(QpInit.rc(lb.cqA));
            broken.toError();
            assertThrows(QpStateException.class, () -> lb.cm.connect(any, broken, ConnectOptions.defaults()));
            QueuePair idle = lb.pd.createQp(QpInit.rc(lb.cqA));
            assertThrows(IllegalArgumentException.class, () -> lb.cm.connect(any, idle, ConnectOptions.defaults().ird(129)));
            assertThrows(IllegalArgumentException.class, () -> lb.cm.connect(any, idle, ConnectOptions.defaults().markers(true)));
            Listener l = lb.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            CompletableFuture<Throwable> tooBig = new CompletableFuture<>();
            l.onConnectRequest(r -> {
                try {
                    r.accept(idle, AcceptOptions.defaults().privateData(new byte[253]));
                } catch (RuntimeException e) {
                    tooBig.complete(e);
                    r.reject();
                }
            });
            QueuePair other = lb.pd.createQp(QpInit.rc(lb.cqA));
            assertThrows(ExecutionException.class, () -> lb.cm.connect(l.localAddress(), other, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS));
            assertInstanceOf(IllegalArgumentException.class, tooBig.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void closingTheCmAbortsConnectionsAndLeavesQpsOpen() throws Exception {
        try (Loopback lb = new Loopback()) {
            lb.cm.close();
            assertEquals(QpState.ERROR, lb.a.state());
            assertFalse(lb.a.isClosed());
            assertEquals(Connection.State.DISCONNECTED, lb.connA.state());
            lb.connA.disconnected().get(5, TimeUnit.SECONDS);
        }
    }
}
