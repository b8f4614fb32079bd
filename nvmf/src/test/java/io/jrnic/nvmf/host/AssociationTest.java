package io.jrnic.nvmf.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.nvmf.wire.Cqe;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.nvmf.wire.Status;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Several associations at once, held AERs, and the Fabrics Disconnect. */
@Timeout(60)
class AssociationTest {
    private static final String NQN = LoopbackTest.NQN;

    @Test
    void threeHostsWithTwoQueuesEachReadBackTheirOwnRegions() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(3 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)) {
            List<NvmfHost> hosts = new ArrayList<>();
            try {
                for (int h = 0; h < 3; h++) {
                    hosts.add(NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(2)
                            .queueDepth(8)));
                }
                assertEquals(3, target.controllerCount());
                assertEquals(9, target.queueCount());
                assertEquals(3, hosts.stream().mapToInt(NvmfHost::controllerId).distinct().count());
                List<CompletableFuture<Void>> writes = new ArrayList<>();
                byte[][] data = new byte[3][];
                for (int h = 0; h < 3; h++) {
                    data[h] = LoopbackTest.bytes(new Random(h), 1 << 20);
                    for (int k = 0; k < 16; k++) { // 16 x 64 KiB per host, several in flight per queue
                        writes.add(hosts.get(h).write(h * 2048L + k * 128L, ByteBuffer.wrap(data[h], k << 16, 1 << 16)));
                    }
                }
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                for (int h = 0; h < 3; h++) {
                    ByteBuffer back = ByteBuffer.allocate(1 << 20);
                    List<CompletableFuture<Void>> reads = new ArrayList<>();
                    for (int k = 0; k < 8; k++) {
                        reads.add(hosts.get((h + 1) % 3).read(h * 2048L + k * 256L,
                                back.duplicate().position(k << 17).limit((k + 1) << 17)));
                    }
                    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                    assertArrayEquals(data[h], back.array(), "region of host " + h);
                }
            } finally {
                hosts.forEach(NvmfHost::close);
            }
            ErrorPathsTest.awaitTrue(() -> target.controllerCount() == 0 && target.queueCount() == 0);
        }
    }

    @Test
    void asynchronousEventRequestsAreHeldUpToTheLimit() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
            HostQueue admin = host.adminQueue();
            List<CompletableFuture<Cqe>> aers = new ArrayList<>();
            for (int k = 0; k < 5; k++) {
                aers.add(admin.submit(new Sqe().opcode(Opcodes.ADMIN_ASYNC_EVENT_REQUEST), HostQueue.Direction.NONE,
                        null, false));
            }
            // commands on one queue are served in order: once this Keep Alive is answered, all five were seen
            assertTrue(host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_KEEP_ALIVE), null).isSuccess());
            long held = aers.stream().filter(f -> !f.isDone()).count();
            assertEquals(4, held); // AERL + 1
            Cqe fifth = aers.stream().filter(CompletableFuture::isDone).findFirst().orElseThrow().get();
            assertEquals(Status.ASYNC_EVENT_LIMIT_EXCEEDED, fifth.status() & 0x7FF);
            ByteBuffer b = ByteBuffer.allocate(512);
            host.read(0, b).get(10, TimeUnit.SECONDS); // held AERs take no receive from the I/O path
        }
    }

    @Test
    void disconnectEndsTheQueueItIsSentOn() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(2))) {
            assertTrue(host.ioCommand(1, Fabrics.disconnect(0), null, false, false).isSuccess());
            host.ioQueue(1).connection().disconnected().get(10, TimeUnit.SECONDS);
            ErrorPathsTest.awaitTrue(() -> target.queueCount() == 2);
            assertEquals(1, target.controllerCount());
            assertFalse(host.ioQueue(0).connection().disconnected().isDone());
            assertTrue(host.ioCommand(0, new Sqe().opcode(Opcodes.IO_FLUSH).nsid(1), null, false, false).isSuccess());
        }
    }

    @Test
    void clearingCcEnResetsTheControllerAndDropsItsIoQueues() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(2))) {
            assertEquals(3, target.queueCount());
            assertTrue(host.adminCommand(Fabrics.propertySet(0, Fabrics.CC, Fabrics.SIZE_4, 6 << 16 | 4 << 20), null)
                    .isSuccess());
            ErrorPathsTest.awaitTrue(() -> target.queueCount() == 1); // the admin queue stays
            Cqe csts = host.adminCommand(Fabrics.propertyGet(0, Fabrics.CSTS, Fabrics.SIZE_4), null);
            assertEquals(0, csts.dw0() & 1); // not ready
            assertEquals(Status.COMMAND_SEQUENCE_ERROR, host.adminCommand(new Sqe().opcode(Opcodes.ADMIN_IDENTIFY)
                    .cdw(10, Opcodes.CNS_CONTROLLER), ByteBuffer.allocate(4096)).status() & 0x7FF);
            host.ioQueue(0).connection().disconnected().get(10, TimeUnit.SECONDS);
        }
    }
}
