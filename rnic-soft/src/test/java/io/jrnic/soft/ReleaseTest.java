package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.SendWr;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a device keeps of a connection once it is over: nothing. A QP that was connected, completed work requests
 * (polled from a CQ that lives on) and was disconnected and destroyed becomes unreachable, with its stream and
 * its buffers: neither the connection manager's record of its connections nor the CQ's ring slots keep it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReleaseTest {
    @Test
    void aClosedQpIsNotKeptByTheConnectionManagerOrByPolledCompletions() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            MemoryRegion src = a.pd.register(new byte[4096], Access.LOCAL_WRITE);
            MemoryRegion dst = b.pd.register(new byte[4096], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            BlockingQueue<QueuePair> accepted = new LinkedBlockingQueue<>();
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> {
                QueuePair qp = b.pd.createQp(QpInit.rc(b.cq).maxSendWr(4).maxRecvWr(4));
                r.accept(qp, AcceptOptions.defaults());
                accepted.add(qp);
            });
            WeakReference<QueuePair>[] gone = connectWriteAndClose(a, b, l, accepted, src, dst);
            for (int i = 0; i < 100 && (gone[0].get() != null || gone[1].get() != null); i++) {
                // the fixture's record of async events (QP_LLP_CLOSED) refers to the QPs, and the responder's
                // can arrive after the close: drop it on every round
                a.events.clear();
                b.events.clear();
                System.gc();
                Thread.sleep(20);
            }
            assertNull(gone[0].get(), "the initiator's closed QP is still reachable");
            assertNull(gone[1].get(), "the responder's closed QP is still reachable");
        }
    }

    @SuppressWarnings("unchecked")
    private static WeakReference<QueuePair>[] connectWriteAndClose(SoftPair.Side a, SoftPair.Side b, Listener l,
            BlockingQueue<QueuePair> accepted, MemoryRegion src, MemoryRegion dst) throws Exception {
        QueuePair qa = a.pd.createQp(QpInit.rc(a.cq).maxSendWr(4).maxRecvWr(4));
        Connection c = a.cm.connect(l.localAddress(), qa, ConnectOptions.defaults()).get(10, TimeUnit.SECONDS);
        QueuePair qb = accepted.poll(10, TimeUnit.SECONDS);
        qa.postSend(SendWr.rdmaWrite().id(1).local(src, 0, 4096).remote(dst.stag(), 0).signaled());
        Completion done = a.awaitOne(); // polled through the CQ's ring, which outlives the QP
        assertEquals(CompletionStatus.SUCCESS, done.status());
        c.disconnect().get(10, TimeUnit.SECONDS);
        SoftPair.eventually(() -> qb.state() == io.jrnic.verbs.QpState.IDLE
                || qb.state() == io.jrnic.verbs.QpState.ERROR);
        qa.close();
        qb.close();
        return new WeakReference[] {new WeakReference<>(qa), new WeakReference<>(qb)};
    }
}
