package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.WrOpcode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Send variants, many outstanding WRs, RFC 7306 atomics and immediate data, fast registration, close paths. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OperationsTest {

    @Test
    void hundredsOfOutstandingWritesSendsAndReadsCompleteInPostingOrder() throws Exception {
        try (SoftPair p = new SoftPair()) {
            int n = 400;
            int chunk = 4096;
            byte[] src = new byte[n * chunk];
            for (int i = 0; i < src.length; i++) {
                src[i] = (byte) (i * 7 + i / chunk);
            }
            byte[] dst = new byte[n * chunk];
            byte[] back = new byte[n * chunk];
            byte[] recv = new byte[n * 16];
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion bk = p.a.pd.register(back, Access.LOCAL_WRITE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            MemoryRegion r = p.b.pd.register(recv, Access.LOCAL_WRITE);
            for (int i = 0; i < n; i++) {
                p.b.qp.postRecv(RecvWr.of(1000 + i, r.sge(i * 16, 16)));
            }
            RemoteBuffer rb = d.advertise();
            List<SendWr> wrs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                wrs.add(SendWr.rdmaWrite().id(i).local(s.sge(i * chunk, chunk)).remote(rb, (long) i * chunk)
                        .signaled(i % 50 == 49));
            }
            p.a.qp.postSend(wrs);
            wrs.clear();
            for (int i = 0; i < n; i++) {
                wrs.add(SendWr.send().id(n + i).local(s.sge(i * chunk, 16)).signaled());
            }
            p.a.qp.postSend(wrs);
            List<Completion> cs = p.a.await(n / 50 + n);
            for (int i = 0; i < cs.size(); i++) {
                long expected = i < n / 50 ? 50L * i + 49 : n + (i - n / 50);
                assertEquals(expected, cs.get(i).id(), "completion " + i);
                assertEquals(CompletionStatus.SUCCESS, cs.get(i).status());
            }
            List<Completion> rs = p.b.await(n);
            for (int i = 0; i < n; i++) {
                assertEquals(1000 + i, rs.get(i).id());
                assertEquals(16, rs.get(i).byteLength());
                assertArrayEquals(Arrays.copyOfRange(src, i * chunk, i * chunk + 16),
                        Arrays.copyOfRange(recv, i * 16, i * 16 + 16));
            }
            assertArrayEquals(src, dst);
            wrs.clear();
            for (int i = 0; i < 200; i++) {
                // 200 Reads against ORD 16: queued and served in order
                wrs.add(SendWr.rdmaRead().id(i).local(bk.sge(i * chunk, 2 * chunk)).remote(rb, (long) i * chunk)
                        .signaled());
            }
            p.a.qp.postSend(wrs);
            List<Completion> reads = p.a.await(200);
            for (int i = 0; i < 200; i++) {
                assertEquals(i, reads.get(i).id());
                assertEquals(CompletionStatus.SUCCESS, reads.get(i).status());
            }
            assertArrayEquals(Arrays.copyOf(src, 201 * chunk), Arrays.copyOf(back, 201 * chunk));
        }
    }

    @Test
    void sendVariantsCarrySolicitedEventAndInvalidate() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] recv = new byte[64];
            MemoryRegion r = p.b.pd.register(recv, Access.LOCAL_WRITE);
            MemoryRegion victim = p.b.pd.register(new byte[32], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < 4; i++) {
                p.b.qp.postRecv(RecvWr.of(i, r.sge(i * 16, 16)));
            }
            byte[] src = "0123456789abcdef".getBytes();
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.send().id(1).local(s.sge(0, 4)).signaled(),
                    new SendWr(WrOpcode.SEND_WITH_SE).id(2).local(s.sge(4, 4)).signaled(),
                    SendWr.sendWithInvalidate(victim.stag()).id(3).local(s.sge(8, 4)).signaled(),
                    SendWr.send().id(4).local(s.sge(0, 10)).inline().signaled());
            p.a.await(4);
            List<Completion> rs = p.b.await(4);
            assertFalse(rs.get(0).isSolicited());
            assertTrue(rs.get(1).isSolicited());
            assertTrue(rs.get(2).hasInvalidatedStag());
            assertEquals(victim.stag(), rs.get(2).invalidatedStag());
            assertFalse(victim.isValid(), "Send with Invalidate invalidated the STag");
            assertEquals(10, rs.get(3).byteLength());
            for (Completion c : rs) {
                assertEquals(CompletionOpcode.RECV, c.opcode());
                assertEquals(CompletionStatus.SUCCESS, c.status());
            }
            assertArrayEquals("0123".getBytes(), Arrays.copyOfRange(recv, 0, 4));
            assertArrayEquals("4567".getBytes(), Arrays.copyOfRange(recv, 16, 20));
            assertArrayEquals("89ab".getBytes(), Arrays.copyOfRange(recv, 32, 36));
            assertArrayEquals("0123456789".getBytes(), Arrays.copyOfRange(recv, 48, 58));
        }
    }

    @Test
    void atomicsFetchAddAndCompareSwapReturnTheOriginalValue() throws Exception {
        try (SoftPair p = new SoftPair()) {
            ByteBuffer target = ByteBuffer.allocate(16);
            target.putLong(0, 40).putLong(8, 7);
            MemoryRegion t = p.b.pd.register(target, Access.LOCAL_WRITE, Access.REMOTE_ATOMIC);
            byte[] result = new byte[24];
            MemoryRegion res = p.a.pd.register(result, Access.LOCAL_WRITE);
            RemoteBuffer rb = t.advertise();
            p.a.qp.postSend(SendWr.fetchAdd(2).id(1).local(res.sge(0, 8)).remote(rb, 0).signaled(),
                    SendWr.compareSwap(7, 99).id(2).local(res.sge(8, 8)).remote(rb, 8).signaled(),
                    SendWr.compareSwap(7, 1234).id(3).local(res.sge(16, 8)).remote(rb, 8).signaled());
            List<Completion> cs = p.a.await(3);
            for (Completion c : cs) {
                assertEquals(CompletionStatus.SUCCESS, c.status(), c.toString());
                assertEquals(8, c.byteLength());
            }
            ByteBuffer rr = ByteBuffer.wrap(result);
            assertEquals(40, rr.getLong(0));
            assertEquals(7, rr.getLong(8));
            assertEquals(99, rr.getLong(16), "second compare failed: original returned");
            assertEquals(42, target.getLong(0));
            assertEquals(99, target.getLong(8));
        }
    }

    @Test
    void immediateDataAndWriteWithImmediateConsumeReceives() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] dst = new byte[32];
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion r = p.b.pd.register(new byte[8], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, r.sge(0, 0)), RecvWr.of(2, r.sge(0, 0)));
            byte[] src = "immediate-write!".getBytes();
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.immediateData(0xCAFEL).id(1).solicited().signaled(),
                    SendWr.rdmaWriteWithImmediate(0xBEEFL).id(2).local(s.sge()).remote(d.advertise(), 4).signaled());
            List<Completion> cs = p.a.await(2);
            assertEquals(CompletionStatus.SUCCESS, cs.get(1).status(), cs.toString());
            List<Completion> rs = p.b.await(2);
            assertEquals(CompletionOpcode.RECV_IMMEDIATE, rs.get(0).opcode());
            assertEquals(0xCAFEL, rs.get(0).immediateData());
            assertTrue(rs.get(0).isSolicited());
            assertEquals(0xBEEFL, rs.get(1).immediateData());
            assertArrayEquals(src, Arrays.copyOfRange(dst, 4, 4 + src.length));
        }
    }

    @Test
    void fastRegistrationMapsMemoryUnderANewKeyInSendQueueOrder() throws Exception {
        try (SoftPair p = new SoftPair()) {
            MemoryRegion fr = p.b.pd.allocateFastRegMr(4096);
            assertFalse(fr.isValid());
            byte[] mem = new byte[256];
            p.b.qp.postSend(SendWr.fastRegister(fr, Memory.of(mem), 0x42, Access.LOCAL_WRITE, Access.REMOTE_WRITE)
                    .id(1).signaled());
            Completion reg = p.b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, reg.status(), reg.toString());
            assertTrue(fr.isValid());
            assertEquals(0x42, fr.stag() & 0xFF);
            byte[] src = {9, 8, 7, 6};
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaWrite().id(2).local(s.sge()).remote(fr.stag(), 100).signaled());
            assertEquals(CompletionStatus.SUCCESS, p.a.awaitOne().status());
            SoftPair.eventually(() -> mem[103] == 6);
            assertArrayEquals(src, Arrays.copyOfRange(mem, 100, 104));
        }
    }

    /**
     * The close flushes the receives posted before it. One posted once the close left the QP in IDLE (a service
     * reposting an instant after it) is legal there and waits for a next connection; a move to ERROR flushes it.
     */
    @Test
    void orderlyDisconnectReturnsBothQpsToIdleAndFlushesReceivesPostedBeforeIt() throws Exception {
        try (SoftPair p = new SoftPair()) {
            MemoryRegion r = p.b.pd.register(new byte[16], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(5, r.sge()));
            p.connA.close();
            SoftPair.eventually(() -> p.a.qp.state() == QpState.IDLE && p.b.qp.state() == QpState.IDLE);
            Completion flushed = p.b.awaitOne();
            assertEquals(5, flushed.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, flushed.status());

            p.b.qp.postRecv(RecvWr.of(6, r.sge())); // kept (QpEngineTest: ...AfterAnOrderlyCloseIsKeptForTheNextConnection)
            p.b.qp.toError();
            Completion late = p.b.awaitOne();
            assertEquals(6, late.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, late.status());
        }
    }

    @Test
    void resetStreamIsAnLlpErrorOnBothSidesAndFlushesReceives() throws Exception {
        try (SoftPair p = new SoftPair()) {
            MemoryRegion r = p.b.pd.register(new byte[16], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(3, r.sge()));
            p.a.cm.close(); // aborts every connection of A's connection manager: RST
            SoftPair.eventually(() -> p.a.qp.state() == QpState.ERROR && p.b.qp.state() == QpState.ERROR);
            p.a.awaitEvent(AsyncEventType.QP_LLP_ERROR);
            p.b.awaitEvent(AsyncEventType.QP_LLP_ERROR);
            Completion c = p.b.awaitOne();
            assertEquals(3, c.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, c.status());
        }
    }

    @Test
    void abortedPeerIsATerminateAndFlushesOutstandingReceives() throws Exception {
        try (SoftPair p = new SoftPair()) {
            MemoryRegion r = p.a.pd.register(new byte[16], Access.LOCAL_WRITE);
            p.a.qp.postRecv(RecvWr.of(9, r.sge()));
            p.b.qp.toError(); // B aborts: Terminate (RDMAP local catastrophic), close; A's work flushes
            SoftPair.eventually(() -> p.a.qp.state() == QpState.ERROR);
            assertEquals(new io.jrnic.verbs.TerminateInfo(0, 0, 0x00, true),
                    p.a.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED).terminate());
            Completion c = p.a.awaitOne();
            assertEquals(9, c.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, c.status());
        }
    }

    @Test
    void completionQueueOverflowIsALocalCatastrophicTerminate() throws Exception {
        try (SoftPair.Side a = new SoftPair.Side("A"); SoftPair.Side b = new SoftPair.Side("B")) {
            var tinyCq = a.dev.createCq(io.jrnic.verbs.CqInit.of(2).context("tiny"));
            var qp = a.pd.createQp(io.jrnic.verbs.QpInit.rc(tinyCq).maxSendWr(16).maxRecvWr(4));
            var l = b.cm.listen(new java.net.InetSocketAddress("127.0.0.1", 0),
                    io.jrnic.verbs.ConnectOptions.defaults());
            l.onConnectRequest(r -> r.accept(b.qp, io.jrnic.verbs.AcceptOptions.defaults()));
            a.cm.connect(l.localAddress(), qp, io.jrnic.verbs.ConnectOptions.defaults()
                    .peerToPeer(io.jrnic.verbs.RtrType.WRITE)).get(10, TimeUnit.SECONDS);
            MemoryRegion d = b.pd.register(new byte[64], Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion s = a.pd.register(new byte[64], Access.LOCAL_WRITE);
            // one batch: posted one by one, the overflow could move the QP to ERROR between two posts
            List<SendWr> four = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                four.add(SendWr.rdmaWrite().id(i).local(s.sge(0, 8)).remote(d.advertise(), 0).signaled());
            }
            qp.postSend(four);
            SoftPair.eventually(() -> qp.state() == QpState.ERROR && b.qp.state() == QpState.ERROR);
            assertTrue(tinyCq.isOverflowed());
            assertEquals(new io.jrnic.verbs.TerminateInfo(0, 0, 0x00, true),
                    b.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED).terminate());
        }
    }

    @Test
    void sixtyFourOneMebibyteWritesMoveEveryByteAndTheTimeIsReported() throws Exception {
        try (SoftPair p = new SoftPair()) {
            int size = 1 << 20;
            int count = 64;
            byte[] src = new byte[size];
            for (int i = 0; i < size; i++) {
                src[i] = (byte) (i * 31 + 7);
            }
            byte[] dst = new byte[size];
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion r = p.b.pd.register(new byte[16], Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(99, r.sge()));
            long rxBefore = p.b.dev.stats().counter("rxBytes");
            List<SendWr> wrs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                wrs.add(SendWr.rdmaWrite().id(i).local(s.sge()).remote(d.advertise(), 0).signaled(i == count - 1));
            }
            wrs.add(SendWr.send().id(count).local(s.sge(0, 16)).signaled()); // placed after every Write before it
            long t0 = System.nanoTime();
            p.a.qp.postSend(wrs);
            List<Completion> a = p.a.await(2);
            assertEquals(List.of(CompletionStatus.SUCCESS, CompletionStatus.SUCCESS), a.stream().map(Completion::status).toList());
            Completion recv = p.b.awaitOne();
            long ns = System.nanoTime() - t0;
            assertEquals(CompletionStatus.SUCCESS, recv.status());
            assertArrayEquals(src, dst, "the Writes placed the source");
            long moved = p.b.dev.stats().counter("rxBytes") - rxBefore;
            assertTrue(moved >= (long) count * size + 16, "received " + moved + " octets for " + count + " MiB");
            System.out.printf("soft RNIC: %d x 1 MiB RDMA Write over loopback in %.1f ms = %.0f MiB/s (%s)%n", count,
                    ns / 1e6, count * 1e9 / ns, p.a.dev.attributes().vendor());
        }
    }
}
