package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SrqAndEventsTest {

    @Test
    void srqFeedsReceivesAndRaisesTheLimitEventOnce() throws Exception {
        try (RdmaDevice dev = Rdma.open("fake")) {
            LinkedBlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();
            dev.onAsyncEvent(events::add);
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(16);
            SharedReceiveQueue srq = pd.createSrq(8, 1, "srq-ctx");
            MemoryRegion mr = pd.register(new byte[128], Access.LOCAL_WRITE);
            for (int i = 0; i < 4; i++) {
                srq.postRecv(RecvWr.of(i, mr.sge(i * 16, 16)));
            }
            assertEquals(4, srq.depth());
            srq.armLimit(3);
            ConnectionManager cm = dev.connectionManager();
            QueuePair server = pd.createQp(QpInit.rc(cq).srq(srq).context("s"));
            QueuePair client = pd.createQp(QpInit.rc(cq));
            Listener l = cm.listen(new java.net.InetSocketAddress("127.0.0.1", 0), ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(server, AcceptOptions.defaults()));
            cm.connect(l.localAddress(), client, ConnectOptions.defaults()).get(5, TimeUnit.SECONDS);
            SendWr s = SendWr.send().local(mr.sge(100, 4));
            client.postSend(s);
            client.postSend(s);
            assertEquals(2, srq.depth());
            AsyncEvent ev = events.poll(5, TimeUnit.SECONDS);
            assertEquals(AsyncEventType.SRQ_LIMIT_REACHED, ev.type());
            assertEquals("srq-ctx", ev.context());
            assertEquals(0, srq.limit());
            Completion[] wc = Completion.array(4);
            assertEquals(2, cq.poll(wc));
            assertEquals(0, wc[0].id());
            assertEquals(1, wc[1].id());
            assertEquals("s", wc[0].qpContext());
            server.toError();
            AsyncEvent last = events.poll(5, TimeUnit.SECONDS);
            assertEquals(AsyncEventType.QP_LAST_WQE_REACHED, last.type());
            assertSame(server, last.resource());
            assertEquals(2, srq.depth());
            assertThrows(IllegalArgumentException.class, () -> srq.armLimit(9));
        }
    }

    @Test
    void terminateReceivedRaisesAffiliatedEventWithTriple() throws Exception {
        try (Loopback lb = new Loopback()) {
            LinkedBlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();
            lb.dev.onAsyncEvent(events::add);
            MemoryRegion mr = lb.pd.register(new byte[16], Access.LOCAL_WRITE);
            lb.a.postSend(SendWr.send().local(mr.sge(0, 4)));   // no receive posted at B
            AsyncEvent ev = events.poll(5, TimeUnit.SECONDS);
            assertEquals(AsyncEventType.QP_TERMINATE_RECEIVED, ev.type());
            assertEquals(new TerminateInfo(1, 2, 0x02, true), ev.terminate());
            assertEquals("A", ev.context());
            Completion[] wc = Completion.array(2);
            assertEquals(1, lb.cqA.poll(wc));
            assertEquals(CompletionStatus.REMOTE_INVALID_REQUEST, wc[0].status());
        }
    }

    @Test
    void consumerResetNeedsErrorAndEmptyQueues() throws Exception {
        try (Loopback lb = new Loopback()) {
            assertThrows(QpStateException.class, lb.a::reset);
            MemoryRegion mr = lb.pd.register(new byte[16], Access.LOCAL_WRITE);
            lb.a.toError();
            lb.a.toError();
            assertEquals(QpState.ERROR, lb.a.state());
            lb.a.reset();
            assertEquals(QpState.IDLE, lb.a.state());
            assertEquals(java.util.List.of(QpTrigger.MODIFY_TO_ERROR, QpTrigger.RESET_TO_IDLE), lb.fake(lb.a).modifies);
            lb.a.postRecv(RecvWr.of(1, mr.sge(0, 16)));
        }
    }

    @Test
    void providerIllegalTransitionAndOutOfOrderRetirementAreReported() throws Exception {
        try (Loopback lb = new Loopback()) {
            FakeQp f = lb.fake(lb.a);
            assertThrows(IllegalQpTransitionException.class, () -> f.up.transition(QpTrigger.CONNECTED, null));
            assertThrows(IllegalStateException.class, f.up::flushAll);
            MemoryRegion mr = lb.pd.register(new byte[16], Access.LOCAL_WRITE);
            f.autoExecute = false;
            SendWr one = SendWr.send().local(mr.sge(0, 4));
            SendWr two = SendWr.send().local(mr.sge(0, 4));
            lb.a.postSend(one, two);
            assertThrows(IllegalStateException.class, () -> f.up.sendDone(two));
            assertTrue(f.up.sendDone(one));
            assertTrue(f.up.sendDone(two));
        }
    }
}
