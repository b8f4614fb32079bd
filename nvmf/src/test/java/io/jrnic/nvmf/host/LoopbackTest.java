package io.jrnic.nvmf.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.nvmf.wire.Opcodes;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The jrnic host against the jrnic target over loopback. */
@Timeout(60)
class LoopbackTest {
    static final String NQN = "nqn.2026-11.io.jrnic:test";
    static final InetSocketAddress LO = new InetSocketAddress("127.0.0.1", 0);

    @Test
    void connectsIdentifiesAndReadsBackWhatItWroteIntoTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ns.img");
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.file(file, 4 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(),
                        NvmfHost.Options.defaults(NQN).ioQueues(2).queueDepth(8))) {
            assertEquals(8192, host.blocks());
            assertEquals(512, host.blockSize());
            assertEquals(128 * 1024, host.maxTransfer());
            assertEquals(2, host.ioQueues());
            ByteBuffer id = host.identifyController();
            assertEquals(1, id.get(111)); // CNTRLTYPE: I/O controller
            assertEquals(NQN, nul(id, 768));
            assertEquals((64 + 8192) / 16, id.getInt(1792)); // IOCCSZ
            assertEquals(1, target.controllerCount());
            assertEquals(3, target.queueCount());

            // 4 KiB writes go in the capsule, 64 KiB ones by RDMA READ of the host's keyed block
            Random rnd = new Random(1);
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            byte[] small = bytes(rnd, 4096);
            byte[] large = bytes(rnd, 64 * 1024);
            for (int k = 0; k < 16; k++) {
                writes.add(host.write(k * 8L, ByteBuffer.wrap(small)));
                writes.add(host.write(1024 + k * 128L, ByteBuffer.wrap(large)));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            host.flush().get(10, TimeUnit.SECONDS);
            for (int k = 0; k < 16; k++) {
                ByteBuffer a = ByteBuffer.allocateDirect(4096);
                ByteBuffer b = ByteBuffer.allocate(64 * 1024);
                host.batch(List.of(NvmfHost.Io.read(k * 8L, a), NvmfHost.Io.read(1024 + k * 128L, b)))
                        .get(10, TimeUnit.SECONDS);
                assertArrayEquals(small, array(a), "4 KiB block " + k);
                assertArrayEquals(large, array(b), "64 KiB block " + k);
            }
            byte[] onDisk = Files.readAllBytes(file);
            assertArrayEquals(large, java.util.Arrays.copyOfRange(onDisk, 1024 * 512, 1024 * 512 + large.length));
        }
    }

    @Test
    void withFastRegistrationEveryResponseInvalidatesTheCommandsKey() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1)
                        .queueDepth(4).registration(NvmfHost.Registration.FAST_REGISTRATION)
                        .inCapsuleWrites(false))) {
            byte[] data = bytes(new Random(2), 8192);
            for (int k = 0; k < 10; k++) {
                host.write(k * 16L, ByteBuffer.wrap(data)).get(10, TimeUnit.SECONDS);
                ByteBuffer back = ByteBuffer.allocate(8192);
                host.read(k * 16L, back).get(10, TimeUnit.SECONDS);
                assertArrayEquals(data, back.array());
            }
            HostQueue q = host.ioQueue(0);
            assertEquals(20, q.remoteInvalidations.get());
            assertEquals(0, q.localInvalidations.get());
        }
    }

    @Test
    void identifyAnswersTheNamespaceListsAndDescriptors() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 4096);
                NvmfTarget target = NvmfTarget.start(td, LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
            assertEquals(4096, host.blockSize());
            assertEquals(256, host.blocks());
            ByteBuffer list = le(4096);
            host.adminCommand(new io.jrnic.nvmf.wire.Sqe().opcode(Opcodes.ADMIN_IDENTIFY).cdw(10,
                    Opcodes.CNS_ACTIVE_NS_LIST), list);
            assertEquals(1, list.getInt(0));
            assertEquals(0, list.getInt(4));
            ByteBuffer desc = le(4096);
            assertTrue(host.adminCommand(new io.jrnic.nvmf.wire.Sqe().opcode(Opcodes.ADMIN_IDENTIFY).nsid(1)
                    .cdw(10, Opcodes.CNS_NS_DESCRIPTORS), desc).isSuccess());
            assertEquals(2, desc.get(0)); // NIDT NGUID
            assertEquals(16, desc.get(1));
            assertEquals(3, desc.get(20)); // NIDT UUID
            ByteBuffer smart = smartLog(host);
            assertEquals(100, smart.get(3)); // available spare
        }
    }

    @Test
    void theSmartLogCountsTheHostsReadAndWriteCommands() throws Exception {
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LO, NvmfTarget.Config.defaults(NQN), ns);
                NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
            for (int k = 0; k < 3; k++) {
                host.write(k * 8L, ByteBuffer.wrap(new byte[4096])).get(10, TimeUnit.SECONDS);
            }
            for (int k = 0; k < 5; k++) {
                host.read(k * 2L, ByteBuffer.allocate(1024)).get(10, TimeUnit.SECONDS);
            }
            ByteBuffer smart = smartLog(host);
            assertEquals(5, smart.getLong(64), "host read commands");
            assertEquals(3, smart.getLong(80), "host write commands");
            assertEquals(1, smart.getLong(32), "data units read: 10 blocks of 512 octets, rounded up to one unit");
            assertEquals(1, smart.getLong(48), "data units written: 24 blocks");
        }
    }

    /** Get Log Page, SMART / Health Information (02h), 512 octets, controller-wide. */
    private static ByteBuffer smartLog(NvmfHost host) throws Exception {
        ByteBuffer smart = le(512);
        assertTrue(host.adminCommand(new io.jrnic.nvmf.wire.Sqe().opcode(Opcodes.ADMIN_GET_LOG_PAGE)
                .nsid(0xFFFFFFFF).cdw(10, Opcodes.LOG_SMART | (512 / 4 - 1) << 16), smart).isSuccess());
        return smart;
    }

    static String nul(ByteBuffer b, int at) {
        int n = 0;
        while (b.get(at + n) != 0) {
            n++;
        }
        byte[] s = new byte[n];
        b.get(at, s);
        return new String(s, StandardCharsets.UTF_8);
    }

    static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    static byte[] array(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
