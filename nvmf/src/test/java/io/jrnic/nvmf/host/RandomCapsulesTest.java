package io.jrnic.nvmf.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.nvmf.subsystem.Namespace;
import io.jrnic.nvmf.subsystem.NvmfTarget;
import io.jrnic.nvmf.wire.CmPrivateData;
import io.jrnic.nvmf.wire.Fabrics;
import io.jrnic.nvmf.wire.Sgl;
import io.jrnic.nvmf.wire.Sqe;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bounded, seeded random capsules from raw peers (a connected, enabled admin queue, then random
 * opcodes, fields, SGL descriptors and capsule lengths): every one is answered or ends the peer's
 * association; no handler on the target's thread throws, and the target serves a real host after.
 */
@Timeout(120)
class RandomCapsulesTest {
    private static final String NQN = LoopbackTest.NQN;
    private static final int PEERS = 20;
    private static final int COMMANDS = 24;

    @Test
    void randomCapsulesNeverBreakTheTarget() throws Exception {
        Random rnd = new Random(22);
        int answered = 0;
        try (RdmaDevice td = Rdma.open("soft"); RdmaDevice hd = Rdma.open("soft");
                Namespace ns = Namespace.memory(1 << 20, 512);
                NvmfTarget target = NvmfTarget.start(td, LoopbackTest.LO, NvmfTarget.Config.defaults(NQN), ns)) {
            for (int p = 0; p < PEERS; p++) {
                try (Peer peer = new Peer(hd, target)) {
                    byte[] data = new Fabrics.ConnectData(new byte[16], Fabrics.CNTLID_DYNAMIC, NQN, "nqn.fuzz").encode();
                    peer.send(Fabrics.connect(0, 0, 31, 0, Sgl.inCapsule(0, 1024)).encode(), data);
                    peer.send(Fabrics.propertySet(1, Fabrics.CC, Fabrics.SIZE_4, 1 | 6 << 16 | 4 << 20).encode(), null);
                    for (int k = 0; k < COMMANDS && peer.connection.isActive(); k++) {
                        byte[] q = randomSqe(rnd, k + 2);
                        peer.send(q, rnd.nextInt(4) == 0 ? randomBytes(rnd, rnd.nextInt(2048)) : null,
                                rnd.nextInt(40) == 0 ? rnd.nextInt(64) : -1);
                    }
                    answered += peer.drain(); // answers, or the association's end
                }
            }
            ErrorPathsTest.awaitTrue(() -> target.queueCount() == 0);
            assertTrue(answered > 4 * PEERS, "commands answered: " + answered); // not only torn down at once
            assertEquals(0, target.handlerFailures(), "handlers that threw on the target's thread");
            try (NvmfHost host = NvmfHost.connect(hd, target.address(), NvmfHost.Options.defaults(NQN).ioQueues(1))) {
                host.write(0, ByteBuffer.allocate(4096)).get(10, TimeUnit.SECONDS);
            }
            assertEquals(0, target.handlerFailures());
        }
    }

    private static byte[] randomSqe(Random rnd, int cid) {
        int[] opcodes = {0x00, 0x01, 0x02, 0x06, 0x02, 0x09, 0x0A, 0x0C, 0x18, 0x7F, 0x7F, 0x08, rnd.nextInt(256)};
        Sqe s = new Sqe().opcode(opcodes[rnd.nextInt(opcodes.length)]).cid(cid)
                .nsid(rnd.nextBoolean() ? 1 : rnd.nextInt());
        if (s.opcode() == 0x7F) {
            s.fctype(new int[] {0, 1, 4, 8, rnd.nextInt(256)}[rnd.nextInt(5)]);
        }
        for (int d = 10; d <= 15; d++) {
            s.cdw(d, rnd.nextInt(4) == 0 ? rnd.nextInt() : rnd.nextInt(16));
        }
        Sgl sgl = switch (rnd.nextInt(4)) {
            case 0 -> Sgl.inCapsule(rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(4096), rnd.nextInt(8192));
            case 1 -> new Sgl(rnd.nextInt(16), rnd.nextInt(16), rnd.nextLong(), rnd.nextInt(1 << 24), rnd.nextInt());
            default -> Sgl.keyed(0, 0, 0, false);
        };
        return s.sgl(sgl).encode();
    }

    private static byte[] randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    /** A raw verbs peer: an admin queue of 32 entries, 64 receives for responses. */
    private static final class Peer implements AutoCloseable {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final Connection connection;
        final MemoryRegion mr;
        final ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        int sent;
        int aers;

        Peer(RdmaDevice dev, NvmfTarget target) throws Exception {
            pd = dev.allocatePd();
            cq = dev.createCq(512);
            qp = pd.createQp(QpInit.rc(cq).maxSendWr(64).maxRecvWr(64));
            mr = pd.register(buf, Access.LOCAL_WRITE);
            for (int i = 0; i < 64; i++) {
                qp.postRecv(RecvWr.of(i, mr.sge(i * 16, 16)));
            }
            connection = dev.connectionManager().connect(target.address(), qp, ConnectOptions.defaults()
                    .privateData(new CmPrivateData.Request(0, 0, 32, 31, 0xFFFF).encode())).get(10, TimeUnit.SECONDS);
        }

        void send(byte[] sqe, byte[] data) {
            send(sqe, data, -1);
        }

        /** Sends the SQE and data as one capsule; {@code truncate} >= 0 cuts it to that many octets. */
        void send(byte[] sqe, byte[] data, int truncate) {
            int at = 2048 + (sent % 4) * 10240;
            int len = sqe.length + (data == null ? 0 : data.length);
            buf.put(at, sqe);
            if (data != null) {
                buf.put(at + sqe.length, data);
            }
            if (truncate >= 0) {
                len = Math.min(len, truncate);
            }
            try {
                qp.postSend(SendWr.send().local(mr.sge(at, Math.max(len, 1))));
                sent++;
                if ((sqe[0] & 0xFF) == 0x0C && len >= 64) {
                    aers++;
                }
            } catch (RuntimeException e) {
                // the association is already gone
            }
        }

        /** Polls until every command was answered or the connection ended (bounded); returns the answers. */
        int drain() throws InterruptedException {
            Completion[] got = Completion.array(64);
            int answers = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            int expected = sent - Math.min(aers, 4); // held AERs are never answered
            while (connection.isActive() && answers < expected && System.nanoTime() < end) {
                int n = cq.poll(got);
                for (int i = 0; i < n; i++) {
                    if (!got[i].isOk()) {
                        return answers; // flushed: the target ended the association
                    }
                    if (got[i].opcode() == io.jrnic.verbs.CompletionOpcode.RECV && got[i].isOk()) {
                        answers++;
                        try {
                            qp.postRecv(RecvWr.of(got[i].id(), mr.sge((int) got[i].id() * 16, 16)));
                        } catch (RuntimeException e) {
                            return answers; // the association ended meanwhile
                        }
                    }
                }
                if (n == 0) {
                    Thread.sleep(1);
                }
            }
            assertTrue(answers <= sent);
            return answers;
        }

        @Override
        public void close() {
            connection.close();
            pd.close();
            cq.close();
        }
    }
}
