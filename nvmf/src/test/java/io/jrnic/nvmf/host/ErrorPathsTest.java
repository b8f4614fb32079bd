package io.jrnic.nvmf.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.nvmf.Poller;
import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.ConnectionFailedException;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad commands get NVMe statuses; bad wire behaviour and silence get the association torn down. */
@Timeout(60)
class ErrorPathsTest {
    private static final String NQN = LoopbackTest.NQN;

    @Test
    void badCommandsAreAnsweredWithTheirStatusAndTheQueueGoesOn() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
            ByteBuffer b = ByteBuffer.allocate(4096);
            assertEquals(Status.LBA_OUT_OF_RANGE, status(host.ioCommand(0, rw(Opcodes.IO_READ, 1, 2047, 8), b,
                    false, false)));
            assertEquals(Status.INVALID_NAMESPACE, status(host.ioCommand(0, rw(Opcodes.IO_READ, 2, 0, 8), b,
                    false, false)));
            assertEquals(Status.INVALID_OPCODE, status(host.ioCommand(0, rw(0x55, 1, 0, 8), b, false, false)));
            // a Read whose data would have to come back "in the capsule"
            assertEquals(Status.SGL_DESCRIPTOR_TYPE_INVALID, status(host.ioCommand(0, rw(Opcodes.IO_READ, 1, 0, 1),
                    ByteBuffer.allocate(512), true, true)));
            // 8 blocks to write, a keyed block of 512 octets
            assertEquals(Status.DATA_SGL_LENGTH_INVALID, status(host.ioCommand(0, rw(Opcodes.IO_WRITE, 1, 0, 8),
                    ByteBuffer.allocate(512), true, false)));
            assertEquals(Status.DATA_SGL_LENGTH_INVALID, status(host.ioCommand(0, rw(Opcodes.IO_WRITE, 1, 0, 8),
                    ByteBuffer.allocate(512), true, true)));
            // above MDTS (128 KiB): 512 blocks
            assertEquals(Status.INVALID_FIELD, status(host.ioCommand(0, rw(Opcodes.IO_WRITE, 1, 0, 512),
                    ByteBuffer.allocate(4096), true, false)));
            // Property Get on an I/O queue, Connect twice
            assertEquals(Status.INVALID_FIELD, status(host.ioCommand(0, Fabrics.propertyGet(0, Fabrics.CSTS,
                    Fabrics.SIZE_4), null, false, false)));
            assertEquals(Status.COMMAND_SEQUENCE_ERROR, status(host.ioCommand(0, Fabrics.connect(0, 1, 31, 0, null),
                    ByteBuffer.allocate(1024), true, false)));
            assertEquals(Status.INVALID_FIELD, status(host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_IDENTIFY)
                    .cdw(10, 0x55), ByteBuffer.allocate(4096))));
            assertEquals(Status.INVALID_NAMESPACE, status(host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_IDENTIFY)
                    .nsid(7).cdw(10, Opcodes.CNS_NAMESPACE), ByteBuffer.allocate(4096))));
            assertEquals(Status.INVALID_LOG_PAGE, status(host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_GET_LOG_PAGE)
                    .cdw(10, 0xC0 | 127 << 16), ByteBuffer.allocate(512))));
            assertEquals(Status.INVALID_FIELD, status(host.adminCommand(Fabrics.propertyGet(0, 0x40, Fabrics.SIZE_4),
                    null)));
            assertEquals(Status.INVALID_FIELD, status(host.adminCommand(Fabrics.propertySet(0, Fabrics.CSTS,
                    Fabrics.SIZE_4, 0), null)));
            assertEquals(Status.INVALID_OPCODE, status(host.adminCommand(new Sqe().opcode(0x99), null)));
            assertEquals(Status.INVALID_FIELD, status(host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_SET_FEATURES)
                    .cdw(10, 0x7E), null)));
            // and the good ones still work
            byte[] data = LoopbackTest.bytes(new java.util.Random(3), 4096);
            host.write(8, ByteBuffer.wrap(data)).get(10, TimeUnit.SECONDS);
            ByteBuffer back = ByteBuffer.allocate(4096);
            host.read(8, back).get(10, TimeUnit.SECONDS);
            assertArrayEquals(data, back.array());
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> host.read(host.blocks(), ByteBuffer.allocate(512)).get(10, TimeUnit.SECONDS));
            assertInstanceOf(NvmeStatusException.class, e.getCause());
            assertEquals(1, target.controllerCount());
        }
    }

    @Test
    void aConnectToAnotherSubsystemFailsWithInvalidParameters() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)) {
            NvmeStatusException e = assertThrows(NvmeStatusException.class, () -> NvmfHost.connect(hd,
                    target.address(), NvmfHost.Options.defaults("nqn.2026-11.io.jrnic:other")));
            assertEquals(Status.CONNECT_INVALID_PARAMETERS, e.status());
            assertEquals(1 << 16 | 256, e.cqe().dw0()); // IATTR: in the data; IPO: SUBNQN
            assertEquals(0, target.controllerCount());
        }
    }

    @Test
    void privateDataOutsideTheBindingIsRejectedWithItsStatus() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)) {
            assertEquals(CmPrivateData.INVALID_LENGTH, rejectStatus(hd, target, new byte[4]));
            assertEquals(CmPrivateData.INVALID_RECFMT, rejectStatus(hd, target,
                    new CmPrivateData.Request(7, 0, 32, 31, 0).encode()));
            assertEquals(CmPrivateData.INVALID_HSQSIZE, rejectStatus(hd, target,
                    new CmPrivateData.Request(0, 0, 32, 200, 0).encode()));
            assertEquals(CmPrivateData.INVALID_QID, rejectStatus(hd, target,
                    new CmPrivateData.Request(0, 500, 32, 31, 0).encode()));
            assertEquals(0, target.queueCount());
        }
    }

    @Test
    void withoutKeepAliveTheControllerIsTornDownAfterKato() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)
                        .onEvent(events::add);
                Poller poller = new Poller("test-host", null)) {
            HostQueue admin = new HostQueue(hd, poller, 0, 4, Sqe.SIZE, 4096, NvmfHost.Registration.POOL);
            Cqe c = admin.connect(hd, target.address(), ConnectOptions.defaults(), new Fabrics.ConnectData(
                    new byte[16], Fabrics.CNTLID_DYNAMIC, NQN, "nqn.host:silent"), 200, false);
            assertTrue(c.isSuccess());
            admin.connection().disconnected().get(20, TimeUnit.SECONDS); // the target closed it
            awaitTrue(() -> target.controllerCount() == 0 && target.queueCount() == 0);
            assertTrue(events.stream().anyMatch(s -> s.contains("keep-alive timeout")), events.toString());
            admin.close();
        }
    }

    @Test
    void aHostThatSendsKeepAliveStaysConnectedPastKato() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1)
                        .keepAliveMillis(300))) {
            Thread.sleep(1200); // four timeouts' worth: the keep-alives must have kept it
            host.write(0, ByteBuffer.allocate(512)).get(10, TimeUnit.SECONDS);
            assertEquals(1, target.controllerCount());
        }
    }

    @Test
    void aHostBreakingTheWireIsTornDownAndTheTargetServesTheNext() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)
                        .onEvent(events::add)) {
            // 1: a capsule shorter than an SQE
            try (RawPeer p = new RawPeer(hd, target)) {
                p.send(new byte[10]);
                p.connection.disconnected().get(10, TimeUnit.SECONDS);
            }
            // 2: a Connect whose keyed SGL names a key the host never registered: the RDMA READ fails
            try (RawPeer p = new RawPeer(hd, target)) {
                p.send(Fabrics.connect(1, 0, 31, 0, io.jrnic.nvmf.wire.Sgl.keyed(0, 1024, 0x12345600, false))
                        .encode());
                p.connection.disconnected().get(10, TimeUnit.SECONDS);
            }
            // 3: a command before Connect is answered (Command Sequence Error), the queue stays
            try (RawPeer p = new RawPeer(hd, target)) {
                p.send(new Sqe().opcode(Opcodes.ADMIN_KEEP_ALIVE).cid(77).encode());
                io.jrnic.verbs.Completion[] got = io.jrnic.verbs.Completion.array(4);
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int n = 0;
                while (n == 0 && System.nanoTime() < end) {
                    for (int k = p.cq.poll(got), j = 0; j < k; j++) {
                        if (got[j].opcode() == io.jrnic.verbs.CompletionOpcode.RECV) {
                            n++;
                        }
                    }
                }
                Cqe c = Cqe.decode(p.buf, 0);
                assertEquals(77, c.cid());
                assertEquals(Status.COMMAND_SEQUENCE_ERROR, status(c));
                assertTrue(p.connection.isActive());
            }
            awaitTrue(() -> target.queueCount() == 0);
            try (NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
                host.write(0, ByteBuffer.allocate(4096)).get(10, TimeUnit.SECONDS);
            }
            assertFalse(events.isEmpty());
        }
    }

    @Test
    void aConnectionWithoutConnectIsClosedAndQueuesBeyondTheLimitAreRefused() throws Exception {
        NvmfTarget.Config cfg = NvmfTarget.Config.defaults(NQN).withLimits(1, java.time.Duration.ofMillis(300));
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, cfg, ns);
                RawPeer silent = new RawPeer(hd, target)) {
            assertEquals(CmPrivateData.NO_RESOURCES, rejectStatus(hd, target,
                    new CmPrivateData.Request(0, 0, 32, 31, 0xFFFF).encode())); // one queue is the limit
            silent.connection.disconnected().get(10, TimeUnit.SECONDS); // no Connect within 300 ms
            awaitTrue(() -> target.queueCount() == 0);
        }
    }

    /** A raw verbs peer with the binding's private data for an admin queue of 32 entries. */
    private static final class RawPeer implements AutoCloseable {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final Connection connection;
        final MemoryRegion mr;
        final ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);

        RawPeer(RdmaDevice dev, NvmfTarget target) throws Exception {
            pd = dev.allocatePd();
            cq = dev.createCq(256);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(64).maxRecvWr(8));
            mr = pd.register(buf, Access.LOCAL_WRITE);
            qp.postRecv(RecvWr.of(0, mr.sge(0, 16)));
            connection = dev.connectionManager().connect(target.address(), qp, ConnectOptions.defaults()
                    .privateData(new CmPrivateData.Request(0, 0, 32, 31, 0xFFFF).encode())).get(10, TimeUnit.SECONDS);
        }

        void send(byte[] b) {
            buf.put(1024, b);
            qp.postSend(SendWr.send().local(mr.sge(1024, b.length)));
        }

        @Override
        public void close() {
            connection.close();
            pd.close();
            cq.close();
        }
    }

    private static int rejectStatus(RdmaDevice hd, NvmfTarget target, byte[] pd) throws Exception {
        ProtectionDomain p = hd.allocatePd();
        CompletionQueue cq = hd.createCq(16);
        try {
            QueuePair qp = p.createQp(QpInit.rc(cq));
            ExecutionException e = assertThrows(ExecutionException.class, () -> hd.connectionManager()
                    .connect(target.address(), qp, ConnectOptions.defaults().privateData(pd)).get(10, TimeUnit.SECONDS));
            ConnectionFailedException f = assertInstanceOf(ConnectionFailedException.class, e.getCause());
            return CmPrivateData.Reject.decode(f.privateData()).status();
        } finally {
            p.close();
            cq.close();
        }
    }

    private static Sqe rw(int opcode, int nsid, long slba, int blocks) {
        return new Sqe().opcode(opcode).nsid(nsid).cdw(10, (int) slba).cdw(11, (int) (slba >>> 32))
                .cdw(12, blocks - 1);
    }

    private static int status(Cqe c) {
        return c.status() & 0x7FF;
    }

    /** Waits (bounded, 10 s) until {@code cond} holds; the outcome, not the time, is asserted. */
    static void awaitTrue(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!cond.getAsBoolean() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertTrue(cond.getAsBoolean());
    }
}
