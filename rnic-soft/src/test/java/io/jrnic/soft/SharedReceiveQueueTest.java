package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.SharedReceiveQueue;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Two connections whose responder QPs take receives from one SRQ, in its FIFO order. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SharedReceiveQueueTest {

    @Test
    void twoQpsConsumeOneSharedReceiveQueue() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            SharedReceiveQueue srq = b.pd.createSrq(64, 1, "srq");
            byte[] recv = new byte[64 * 8];
            MemoryRegion r = b.pd.register(recv, Access.LOCAL_WRITE);
            for (int i = 0; i < 64; i++) {
                srq.postRecv(RecvWr.of(i, r.sge(i * 8, 8)));
            }
            List<QueuePair> passive = new ArrayList<>();
            Listener l = b.cm.listen(new InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(req -> {
                QueuePair q = b.pd.createQp(QpInit.rc(b.cq).srq(srq).maxSendWr(4));
                passive.add(q);
                req.accept(q, AcceptOptions.defaults());
            });
            QueuePair a2 = a.pd.createQp(QpInit.rc(a.cq).maxSendWr(16).maxRecvWr(1));
            ConnectOptions co = ConnectOptions.defaults().peerToPeer(RtrType.WRITE);
            a.cm.connect(l.localAddress(), a.qp, co).get(10, TimeUnit.SECONDS);
            a.cm.connect(l.localAddress(), a2, co).get(10, TimeUnit.SECONDS);
            byte[] src = new byte[8];
            MemoryRegion s = a.pd.register(src, Access.LOCAL_WRITE);
            for (int i = 0; i < 5; i++) {
                a.qp.postSend(SendWr.send().id(i).local(s.sge(0, 8)).signaled());
                assertEquals(CompletionStatus.SUCCESS, a.awaitOne().status());
                a2.postSend(SendWr.send().id(100 + i).local(s.sge(0, 4)).signaled());
                assertEquals(CompletionStatus.SUCCESS, a.awaitOne().status());
            }
            List<Completion> got = b.await(10);
            Set<Long> ids = new HashSet<>();
            for (Completion c : got) {
                assertEquals(CompletionStatus.SUCCESS, c.status(), c.toString());
                ids.add(c.id());
            }
            assertEquals(10, ids.size());
            assertEquals(Set.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), ids, "the oldest ten SRQ receives");
            assertEquals(54, srq.depth());
            assertArrayEquals(new byte[8], Arrays.copyOfRange(recv, 80, 88), "receive 10 untouched");
        }
    }
}
