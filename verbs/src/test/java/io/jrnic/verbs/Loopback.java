package io.jrnic.verbs;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Test fixture: one fake device, one PD, one CQ per side, two QPs connected through the CM. */
final class Loopback implements AutoCloseable {
    final RdmaDevice dev;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final ConnectionManager cm;
    final QueuePair a;
    final QueuePair b;
    final Connection connA;
    final Connection connB;

    Loopback(QpInit initA, QpInit initB, int cqSize) throws Exception {
        dev = Rdma.open("fake");
        pd = dev.allocatePd();
        channel = dev.createCompletionChannel();
        cqA = dev.createCq(cqSize, channel, "cqA");
        cqB = dev.createCq(cqSize, channel, "cqB");
        cm = dev.connectionManager();
        a = pd.createQp(initA == null ? QpInit.rc(cqA).context("A") : initA);
        b = pd.createQp(initB == null ? QpInit.rc(cqB).context("B") : initB);
        Listener l = cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
        CompletableFuture<Connection> passive = new CompletableFuture<>();
        l.onConnectRequest(req -> req.accept(b, AcceptOptions.defaults()).thenAccept(passive::complete));
        connA = cm.connect(l.localAddress(), a, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS);
        connB = passive.get(5, TimeUnit.SECONDS);
    }

    Loopback() throws Exception {
        this(null, null, 64);
    }

    FakeQp fake(QueuePair qp) {
        return FakeProvider.last().qp(qp);
    }

    @Override
    public void close() {
        dev.close();
    }
}
