package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CompletionTest {

    @Test
    void sendLandsInPostedReceiveAndBothSidesComplete() throws Exception {
        try (Loopback lb = new Loopback()) {
            byte[] src = "hello, iwarp".getBytes(StandardCharsets.US_ASCII);
            MemoryRegion s = lb.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion r = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            lb.b.postRecv(RecvWr.of(77, r.sge(0, 64)));
            lb.a.postSend(SendWr.send().id(5).local(s.sge()).signaled().solicited());
            Completion[] wc = Completion.array(4);
            assertEquals(1, lb.cqA.poll(wc));
            assertEquals(5, wc[0].id());
            assertTrue(wc[0].isOk());
            assertEquals(CompletionOpcode.SEND, wc[0].opcode());
            assertEquals(src.length, wc[0].byteLength());
            assertEquals("A", wc[0].qpContext());
            assertSame(lb.a, wc[0].qp());
            assertEquals(1, lb.cqB.poll(wc));
            assertEquals(77, wc[0].id());
            assertEquals(CompletionOpcode.RECV, wc[0].opcode());
            assertEquals(src.length, wc[0].byteLength());
            assertTrue(wc[0].isSolicited());
            assertEquals("B", wc[0].qpContext());
            byte[] got = new byte[src.length];
            r.memory().view().getBytes(0, got);
            assertArrayEquals(src, got);
        }
    }

    @Test
    void batchPollReturnsOldestFirstAndLeavesTheRest() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer peer = mr.advertise();
            SendWr w = SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(peer, 32).signaled();
            for (int i = 0; i < 5; i++) {
                lb.a.postSend(w.id(100 + i));
            }
            assertEquals(5, lb.cqA.size());
            Completion[] wc = Completion.array(8);
            assertEquals(2, lb.cqA.poll(wc, 1, 2));
            assertEquals(100, wc[1].id());
            assertEquals(101, wc[2].id());
            assertEquals(0, wc[0].id());
            assertEquals(3, lb.cqA.poll(wc));
            assertEquals(102, wc[0].id());
            assertEquals(104, wc[2].id());
            assertEquals(CompletionOpcode.RDMA_WRITE, wc[2].opcode());
            assertEquals(0, lb.cqA.poll(wc));
            assertThrows(IndexOutOfBoundsException.class, () -> lb.cqA.poll(wc, 5, 4));
        }
    }

    @Test
    void unsignaledSendsAreRetiredWithoutACompletion() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            SendWr w = SendWr.rdmaWrite().id(1).local(mr.sge(0, 4)).remote(mr.advertise(), 8);
            lb.a.postSend(w);
            assertFalse(w.isInFlight());
            assertEquals(0, lb.a.sendQueueDepth());
            assertEquals(0, lb.cqA.size());
        }
    }

    @Test
    void remoteAccessErrorCarriesTerminateAndFlushesTheRestInOrder() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_READ);
            lb.fake(lb.a).autoExecute = false;
            SendWr bad = SendWr.rdmaWrite().id(1).local(mr.sge(0, 4)).remote(mr.advertise(), 0);
            SendWr next = SendWr.send().id(2).local(mr.sge(0, 4));
            lb.a.postSend(bad, next);
            lb.a.postRecv(RecvWr.of(3, mr.sge(0, 8)));
            lb.fake(lb.a).executeAll();
            Completion[] wc = Completion.array(4);
            assertEquals(3, lb.cqA.poll(wc));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, wc[0].status());
            assertEquals(new TerminateInfo(1, 1, 0, true), wc[0].terminate());
            assertEquals(2, wc[1].id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, wc[1].status());
            assertEquals(3, wc[2].id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, wc[2].status());
            assertEquals(QpState.ERROR, lb.a.state());
            assertThrows(QpStateException.class, () -> lb.a.postSend(next));
        }
    }

    @Test
    void rdmaReadCopiesPeerBytesIntoLocalSink() throws Exception {
        try (Loopback lb = new Loopback()) {
            byte[] remote = new byte[32];
            for (int i = 0; i < remote.length; i++) {
                remote[i] = (byte) (i * 3);
            }
            MemoryRegion src = lb.pd.register(Memory.of(remote), MrOptions.of(Access.REMOTE_READ).baseAddress(0x4000));
            MemoryRegion sink = lb.pd.register(new byte[16], Access.LOCAL_WRITE);
            lb.a.postSend(SendWr.rdmaRead().id(9).local(sink.sge()).remote(src.advertise(), 8).signaled());
            Completion[] wc = Completion.array(1);
            assertEquals(1, lb.cqA.poll(wc));
            assertEquals(CompletionOpcode.RDMA_READ, wc[0].opcode());
            assertEquals(16, wc[0].byteLength());
            byte[] got = new byte[16];
            sink.memory().view().getBytes(0, got);
            assertArrayEquals(java.util.Arrays.copyOfRange(remote, 8, 24), got);
        }
    }

    @Test
    void overflowIsStickyRaisesOneEventAndKeepsQueuedEntries() throws Exception {
        try (Loopback lb = new Loopback(null, null, 2)) {
            LinkedBlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>();
            lb.dev.onAsyncEvent(events::add);
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            SendWr w = SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(mr.advertise(), 8).signaled();
            for (int i = 0; i < 4; i++) {
                lb.a.postSend(w.id(i));
            }
            assertTrue(lb.cqA.isOverflowed());
            AsyncEvent ev = events.poll(5, TimeUnit.SECONDS);
            assertNotNull(ev);
            assertEquals(AsyncEventType.CQ_OVERFLOW, ev.type());
            assertSame(lb.cqA, ev.resource());
            assertEquals("cqA", ev.context());
            Completion[] wc = Completion.array(4);
            assertEquals(2, lb.cqA.poll(wc));
            assertEquals(0, wc[0].id());
            assertEquals(1, wc[1].id());
            assertTrue(lb.cqA.isOverflowed());
            lb.a.postSend(w.id(9));
            lb.dev.close();
            assertTrue(events.stream().noneMatch(e -> e.type() == AsyncEventType.CQ_OVERFLOW), events.toString());
        }
    }

    @Test
    void armedNotificationFiresOnceOnTheChannel() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            SendWr w = SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(mr.advertise(), 8).signaled();
            lb.a.postSend(w.id(1));
            assertNull(lb.channel.await(0, TimeUnit.MILLISECONDS));
            lb.cqA.requestNotify(false);
            lb.a.postSend(w.id(2));
            lb.a.postSend(w.id(3));
            assertSame(lb.cqA, lb.channel.await(5, TimeUnit.SECONDS));
            assertNull(lb.channel.await(0, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void solicitedOnlyNotificationIgnoresUnsolicitedReceives() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            lb.b.postRecv(RecvWr.of(1, mr.sge(0, 8)), RecvWr.of(2, mr.sge(8, 8)));
            lb.cqB.requestNotify(true);
            lb.a.postSend(SendWr.send().local(mr.sge(16, 4)));
            assertNull(lb.channel.await(0, TimeUnit.MILLISECONDS));
            lb.a.postSend(SendWr.send().local(mr.sge(16, 4)).solicited());
            assertSame(lb.cqB, lb.channel.await(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void channelCallbackModeRunsOnTheEventThread() throws Exception {
        try (Loopback lb = new Loopback()) {
            CompletableFuture<String> thread = new CompletableFuture<>();
            lb.channel.onNotify(cq -> thread.complete(Thread.currentThread().getName()));
            assertThrows(IllegalStateException.class, () -> lb.channel.await(0, TimeUnit.MILLISECONDS));
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            lb.cqA.requestNotify(false);
            lb.a.postSend(SendWr.rdmaWrite().local(mr.sge(0, 4)).remote(mr.advertise(), 8).signaled());
            assertTrue(thread.get(5, TimeUnit.SECONDS).startsWith("jrnic-events-"));
        }
    }

    @Test
    void closingAQpFlushesOutstandingWorkToItsCq() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            lb.fake(lb.a).autoExecute = false;
            SendWr s = SendWr.send().id(1).local(mr.sge(0, 4));
            lb.a.postSend(s);
            lb.b.postRecv(RecvWr.of(2, mr.sge(0, 8)));
            lb.a.close();
            lb.b.close();
            assertFalse(s.isInFlight());
            Completion[] wc = Completion.array(4);
            assertEquals(1, lb.cqA.poll(wc));
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, wc[0].status());
            assertEquals(1, lb.cqB.poll(wc));
            assertEquals(2, wc[0].id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, wc[0].status());
        }
    }

    @Test
    void asyncLayerCompletesFuturesOnPollAndHidesThoseEntries() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            CompletableFuture<Completion> recv = lb.b.async().receive(mr.sge(32, 16));
            CompletableFuture<Completion> send = lb.a.async().send(mr.sge(0, 8));
            lb.a.postSend(SendWr.rdmaWrite().id(55).local(mr.sge(0, 4)).remote(mr.advertise(), 40).signaled());
            assertFalse(send.isDone());
            Completion[] wc = Completion.array(4);
            assertEquals(1, lb.cqA.poll(wc));
            assertEquals(55, wc[0].id());
            assertTrue(send.isDone());
            assertEquals(8, send.get().byteLength());
            assertEquals(0, lb.cqB.poll(wc));
            assertEquals(CompletionOpcode.RECV, recv.get().opcode());
            CompletableFuture<Completion> bad = lb.a.async().write(mr.sge(0, 4), new RemoteBuffer(0x7700, 0, 64), 0);
            lb.cqA.poll(wc);
            WorkCompletionException ex = assertInstanceOf(WorkCompletionException.class,
                    assertThrows(java.util.concurrent.ExecutionException.class, bad::get).getCause());
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ex.status());
        }
    }

    @Test
    void asyncFuturesFailWithFlushWhenTheQpCloses() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            CompletableFuture<Completion> recv = lb.b.async().receive(mr.sge(0, 8));
            lb.cqB.close();
            WorkCompletionException ex = assertInstanceOf(WorkCompletionException.class,
                    assertThrows(java.util.concurrent.ExecutionException.class, recv::get).getCause());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, ex.status());
        }
    }
}
