package io.jrnic.soft;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Test fixture: two "soft" devices in this JVM (A the initiator, B the responder), one PD, CQ and QP
 * each, connected over real loopback TCP through the connection manager.
 */
final class SoftPair implements AutoCloseable {
    static final int DEPTH = 1024;

    final Side a;
    final Side b;
    final Listener listener;
    final Connection connA;
    private final CompletableFuture<Connection> passive = new CompletableFuture<>();

    /** One endpoint. */
    static final class Side implements AutoCloseable {
        final RdmaDevice dev;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        /** The CQ's completion channel (for tests that arm the CQ and block). */
        final io.jrnic.verbs.CompletionChannel channel;
        final ConnectionManager cm;
        final QueuePair qp;
        final List<AsyncEvent> events = new CopyOnWriteArrayList<>();

        Side(String name) {
            dev = Rdma.open("soft");
            dev.onAsyncEvent(events::add);
            pd = dev.allocatePd();
            channel = dev.createCompletionChannel();
            cq = dev.createCq(4 * DEPTH, channel, name);
            cm = dev.connectionManager();
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(DEPTH).maxRecvWr(DEPTH).maxSendSge(3).maxInline(64).context(name));
        }

        /** Polls until {@code n} completions arrived (bounded by the test's timeout). */
        List<Completion> await(int n) throws InterruptedException {
            List<Completion> out = new ArrayList<>();
            Completion[] batch = Completion.array(64);
            while (out.size() < n) {
                int k = cq.poll(batch, 0, Math.min(64, n - out.size()));
                for (int i = 0; i < k; i++) {
                    out.add(batch[i].snapshot());
                }
                if (k == 0) {
                    Thread.sleep(0, 200_000);
                }
            }
            return out;
        }

        /** The first async event of this type, waiting for it. */
        AsyncEvent awaitEvent(io.jrnic.verbs.AsyncEventType type) throws InterruptedException {
            while (true) {
                for (AsyncEvent e : events) {
                    if (e.type() == type) {
                        return e;
                    }
                }
                Thread.sleep(1);
            }
        }

        Completion awaitOne() throws InterruptedException {
            return await(1).get(0);
        }

        @Override
        public void close() {
            dev.close();
        }
    }

    SoftPair() throws Exception {
        this(ConnectOptions.defaults().peerToPeer(io.jrnic.verbs.RtrType.WRITE), ConnectOptions.defaults(),
                AcceptOptions.defaults(), null);
    }

    SoftPair(ConnectOptions connect, ConnectOptions listen, AcceptOptions accept, Consumer<Side> beforeConnect)
            throws Exception {
        a = new Side("A");
        b = new Side("B");
        if (beforeConnect != null) {
            beforeConnect.accept(a);
            beforeConnect.accept(b);
        }
        listener = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), listen);
        listener.onConnectRequest(req -> req.accept(b.qp, accept).whenComplete((c, e) -> {
            if (e != null) {
                passive.completeExceptionally(e);
            } else {
                passive.complete(c);
            }
        }));
        connA = a.cm.connect(listener.localAddress(), a.qp, connect).get(10, TimeUnit.SECONDS);
        if (connect.isPeerToPeer() && connect.mpaRevision() == 2) {
            connB(); // with an RTR the responder is established at once
        }
    }

    /** The responder's connection: established once the initiator's first FPDU (or RTR) arrived. */
    Connection connB() throws Exception {
        return passive.get(10, TimeUnit.SECONDS);
    }

    /** The soft provider's engine behind {@code qp} (through {@link io.jrnic.verbs.QueuePair#unwrap}). */
    static io.jrnic.soft.engine.QpEngine engineOf(io.jrnic.verbs.QueuePair qp) {
        return qp.unwrap(SoftQp.class).engine();
    }

    /** Waits until {@code condition} holds (bounded by the test's timeout). */
    static void eventually(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(1);
        }
    }

    /** {@code n} random octets from {@code seed}. */
    static byte[] pattern(int n, long seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    /** {@code n} octets of {@code b} from {@code at} (its position left alone). */
    static byte[] bytes(java.nio.ByteBuffer b, int at, int n) {
        byte[] a = new byte[n];
        b.duplicate().position(at).get(a);
        return a;
    }

    /** Side {@code s}'s device counter {@code name}. */
    static long counter(Side s, String name) {
        return s.dev.stats().counter(name);
    }

    @Override
    public void close() {
        a.close();
        b.close();
    }

    /**
     * Holds {@code loop} busy with a task until the returned latch is counted down (at most 40 s), so that a test can
     * see what other threads do while the QP's event loop cannot run; returns once the loop is held.
     */
    static java.util.concurrent.CountDownLatch holdLoop(io.netty.channel.EventLoop loop) throws InterruptedException {
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        loop.execute(() -> {
            held.countDown();
            try {
                release.await(40, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        held.await();
        return release;
    }
}
