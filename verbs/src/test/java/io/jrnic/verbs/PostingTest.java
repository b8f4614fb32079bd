package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.*;

import io.jrnic.verbs.InvalidWorkRequestException.Reason;
import org.junit.jupiter.api.Test;

class PostingTest {

    private static Reason reasonOf(Runnable r) {
        return assertThrows(InvalidWorkRequestException.class, r::run).reason();
    }

    @Test
    void sendsNeedRtsReceivesMayBePrepostedInIdle() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(8);
            QueuePair qp = pd.createQp(QpInit.rc(cq));
            MemoryRegion mr = pd.register(new byte[64], Access.LOCAL_WRITE);
            QpStateException e = assertThrows(QpStateException.class, () -> qp.postSend(SendWr.send().local(mr.sge(0, 8))));
            assertEquals(QpState.IDLE, e.state());
            qp.postRecv(RecvWr.of(1, mr.sge(0, 64)));
            assertEquals(1, qp.recvQueueDepth());
            qp.toError();
            assertThrows(QpStateException.class, () -> qp.postRecv(RecvWr.of(2, mr.sge(0, 64))));
            assertEquals(0, qp.recvQueueDepth());
            Completion[] wc = Completion.array(4);
            assertEquals(1, cq.poll(wc));
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, wc[0].status());
        }
    }

    @Test
    void workRequestsAreCheckedRuleByRule() throws Exception {
        try (Loopback lb = new Loopback(null, null, 64)) {
            ProtectionDomain pd = lb.pd;
            MemoryRegion local = pd.register(new byte[64], Access.LOCAL_WRITE);
            MemoryRegion readOnly = pd.register(new byte[64], Access.REMOTE_READ);
            QueuePair qp = lb.a;
            assertEquals(Reason.TOO_MANY_SGES, reasonOf(() -> qp.postSend(SendWr.send().addSge(local.sge(0, 1)).addSge(local.sge(1, 1)))));
            assertEquals(Reason.MISSING_REMOTE, reasonOf(() -> qp.postSend(SendWr.rdmaWrite().local(local.sge(0, 8)))));
            assertEquals(Reason.MISSING_LOCAL_WRITE, reasonOf(() -> qp.postSend(SendWr.rdmaRead().local(readOnly.sge(0, 8)).remote(1, 0))));
            assertEquals(Reason.MISSING_INVALIDATE_STAG, reasonOf(() -> qp.postSend(new SendWr(WrOpcode.SEND_WITH_INVALIDATE))));
            assertEquals(Reason.MISSING_INVALIDATE_STAG, reasonOf(() -> qp.postSend(new SendWr(WrOpcode.LOCAL_INVALIDATE))));
            assertEquals(Reason.INLINE_TOO_LARGE, reasonOf(() -> qp.postSend(SendWr.send().local(local.sge(0, 1)).inline())));
            assertEquals(Reason.INLINE_TOO_LARGE, reasonOf(() -> qp.postSend(SendWr.rdmaRead().local(local.sge(0, 1)).remote(1, 0).inline())));
            assertEquals(Reason.BAD_ATOMIC, reasonOf(() -> qp.postSend(SendWr.fetchAdd(1).local(local.sge(0, 4)).remote(1, 0))));
            assertEquals(Reason.BAD_ATOMIC, reasonOf(() -> qp.postSend(SendWr.fetchAdd(1).local(local.sge(0, 8)).remote(1, 4))));
            assertEquals(Reason.UNEXPECTED_SGES, reasonOf(() -> qp.postSend(SendWr.immediateData(1).local(local.sge(0, 8)))));
            try (ProtectionDomain other = lb.dev.allocatePd()) {
                MemoryRegion foreign = other.register(new byte[8], Access.LOCAL_WRITE);
                assertEquals(Reason.PD_MISMATCH, reasonOf(() -> qp.postSend(SendWr.send().local(foreign.sge(0, 8)))));
                SendWr pending = SendWr.send().local(foreign.sge(0, 8));
                other.close();
                assertEquals(Reason.REGION_INVALID, reasonOf(() -> qp.postSend(pending)));
            }
            assertEquals(0, qp.sendQueueDepth());
        }
    }

    @Test
    void opcodesOfMissingCapabilitiesAreRejected() throws Exception {
        DeviceAttributes saved = FakeProvider.nextAttributes;
        FakeProvider.nextAttributes = DeviceAttributes.builder().maxMessageSize(100).build();
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[256], Access.LOCAL_WRITE);
            assertEquals(Reason.UNSUPPORTED_OPCODE, reasonOf(() -> lb.a.postSend(SendWr.fetchAdd(1).local(mr.sge(0, 8)).remote(1, 0))));
            assertEquals(Reason.UNSUPPORTED_OPCODE, reasonOf(() -> lb.a.postSend(SendWr.immediateData(1))));
            assertEquals(Reason.MESSAGE_TOO_LARGE, reasonOf(() -> lb.a.postSend(SendWr.send().local(mr.sge(0, 101)))));
            assertThrows(UnsupportedOperationException.class, () -> lb.pd.allocateMw(MemoryWindow.Type.TYPE_2));
        } finally {
            FakeProvider.nextAttributes = saved;
        }
    }

    @Test
    void aWorkRequestInFlightCannotBeMutatedOrRepostedUntilRetired() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            lb.fake(lb.a).autoExecute = false;
            SendWr wr = SendWr.send().id(1).local(mr.sge(0, 8)).signaled();
            lb.a.postSend(wr);
            assertTrue(wr.isInFlight());
            assertThrows(WorkRequestInFlightException.class, () -> wr.id(2));
            assertThrows(WorkRequestInFlightException.class, () -> wr.local(mr.sge(0, 4)));
            assertThrows(WorkRequestInFlightException.class, () -> lb.a.postSend(wr));
            SendWr fresh = SendWr.send().id(3).local(mr.sge(0, 8));
            assertThrows(WorkRequestInFlightException.class, () -> lb.a.postSend(fresh, fresh));
            assertFalse(fresh.isInFlight());
            assertEquals(1, lb.a.sendQueueDepth());
            lb.b.postRecv(RecvWr.of(9, mr.sge(8, 16)));
            lb.fake(lb.a).executeAll();
            assertFalse(wr.isInFlight());
            wr.id(2);
            assertEquals(0, lb.a.sendQueueDepth());
        }
    }

    @Test
    void batchIsAllOrNothing() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            lb.fake(lb.a).autoExecute = false;
            SendWr good = SendWr.send().local(mr.sge(0, 8));
            SendWr bad = SendWr.rdmaWrite().local(mr.sge(0, 8));
            InvalidWorkRequestException e = assertThrows(InvalidWorkRequestException.class, () -> lb.a.postSend(good, bad));
            assertEquals(1, e.index());
            assertFalse(good.isInFlight());
            assertEquals(0, lb.a.sendQueueDepth());
            assertTrue(lb.fake(lb.a).held.isEmpty());
        }
    }

    @Test
    void queueCapacityIsEnforced() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion mr = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            RecvWr[] wrs = new RecvWr[129];
            for (int i = 0; i < wrs.length; i++) {
                wrs[i] = RecvWr.of(i, mr.sge(0, 8));
            }
            assertThrows(QueueFullException.class, () -> lb.b.postRecv(wrs));
            assertEquals(0, lb.b.recvQueueDepth());
            lb.b.postRecv(java.util.Arrays.copyOf(wrs, 128));
            assertThrows(QueueFullException.class, () -> lb.b.postRecv(wrs[128]));
        }
    }

    @Test
    void receivesNeedLocalWriteAndQpWithSrqRefusesOwnReceives() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            ProtectionDomain pd = dev.allocatePd();
            CompletionQueue cq = dev.createCq(8);
            SharedReceiveQueue srq = pd.createSrq(4, 1, null);
            QueuePair qp = pd.createQp(QpInit.rc(cq).srq(srq));
            MemoryRegion ro = pd.register(new byte[8], Access.REMOTE_READ);
            MemoryRegion rw = pd.register(new byte[8], Access.LOCAL_WRITE);
            assertEquals(Reason.QP_USES_SRQ, reasonOf(() -> qp.postRecv(RecvWr.of(1, rw.sge(0, 8)))));
            assertEquals(Reason.MISSING_LOCAL_WRITE, reasonOf(() -> srq.postRecv(RecvWr.of(1, ro.sge(0, 8)))));
            assertEquals(Reason.TOO_MANY_SGES, reasonOf(() -> srq.postRecv(RecvWr.of(1, rw.sge(0, 4), rw.sge(4, 4)))));
        }
    }

    @Test
    void windowAndFastRegRulesAreChecked() throws Exception {
        try (Loopback lb = new Loopback()) {
            MemoryRegion plain = lb.pd.register(new byte[64], Access.LOCAL_WRITE);
            MemoryRegion bindable = lb.pd.register(new byte[64], Access.LOCAL_WRITE, Access.MW_BIND);
            MemoryWindow t2 = lb.pd.allocateMw(MemoryWindow.Type.TYPE_2);
            MemoryWindow t1 = lb.pd.allocateMw(MemoryWindow.Type.TYPE_1);
            assertEquals(Reason.BAD_BIND, reasonOf(() -> lb.a.postSend(SendWr.bindWindow(t2, plain.sge(0, 8), 1, Access.REMOTE_READ))));
            assertEquals(Reason.BAD_BIND, reasonOf(() -> lb.a.postSend(SendWr.bindWindow(t1, bindable.sge(0, 8), 1, Access.REMOTE_READ))));
            assertThrows(IllegalStateException.class, () -> t2.bind(lb.a, bindable.sge(0, 8), 1, true, Access.REMOTE_READ));
            lb.a.postSend(SendWr.bindWindow(t2, bindable.sge(8, 16), 7, Access.REMOTE_WRITE).signaled());
            RemoteBuffer rb = t1.bind(lb.a, bindable.sge(0, 8), 2, true, Access.REMOTE_READ);
            assertEquals(STag.nextKey(t1.stag()), rb.stag());
            assertEquals(new RemoteBuffer(STag.withKey(t2.stag(), 7), 8, 16), t2.remoteBuffer(bindable.sge(8, 16), 7));
            MemoryRegion fr = lb.pd.allocateFastRegMr(32);
            assertFalse(fr.isValid());
            assertEquals(Reason.BAD_FAST_REG, reasonOf(() -> lb.a.postSend(SendWr.fastRegister(fr, Memory.of(new byte[33]), 1))));
            assertEquals(Reason.BAD_FAST_REG, reasonOf(() -> lb.a.postSend(SendWr.fastRegister(plain, Memory.of(new byte[8]), 1))));
            assertEquals(Reason.REGION_INVALID, reasonOf(() -> lb.a.postSend(SendWr.send().local(fr, 0, 0))));
        }
    }

    @Test
    void unwrapGivesTheProvidersQpAndRefusesAnyOtherType() {
        try (RdmaDevice dev = Rdma.open("fake")) {
            QueuePair qp = dev.allocatePd().createQp(QpInit.rc(dev.createCq(8)));
            assertNotNull(qp.unwrap(FakeQp.class));
            assertSame(qp.unwrap(FakeQp.class), qp.unwrap(io.jrnic.verbs.spi.QpSpi.class));
            assertThrows(IllegalArgumentException.class, () -> qp.unwrap(String.class));
        }
    }
}
