package io.jrnic.soft;

import static io.jrnic.soft.SoftPair.bytes;
import static io.jrnic.soft.SoftPair.counter;
import static io.jrnic.soft.SoftPair.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.SendWr;
import io.netty.channel.epoll.Epoll;
import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Direct data placement (spec-notes/placement.md) in bulk transfers between two soft devices: MiB-sized WRITE, READ
 * and SEND with odd sizes and offsets land byte for byte through both read paths (the event loop's, and a polling
 * thread's with the loop held busy), the counters showing that the placement path ran. An FPDU cut by a raw peer:
 * {@link DirectPlacementTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectPlacementBulkTest {
    @BeforeEach
    void epoll() {
        Assumptions.assumeTrue(Epoll.isAvailable(), "direct placement needs the epoll transport's reads");
    }

    private static final int MIB = 1024 * 1024;

    /** Polls {@code s}'s CQ for one completion (spinning: a polling thread's reads), bounded by the test's timeout. */
    private static Completion spin(SoftPair.Side s) {
        Completion[] c = Completion.array(1);
        while (s.cq.poll(c) == 0) {
            Thread.onSpinWait();
        }
        return c[0].snapshot();
    }

    /** Waits on {@code s}'s completion channel (the event loop reads and notifies). */
    private static Completion block(SoftPair.Side s) throws InterruptedException {
        Completion[] c = Completion.array(1);
        while (true) {
            s.cq.requestNotify(false);
            if (s.cq.poll(c) == 1) {
                return c[0].snapshot();
            }
            s.channel.await(10, TimeUnit.SECONDS);
        }
    }

    /** One completion on the receiving side {@code s}: polled with its loop held (inPlace), else waited for. */
    private static Completion receive(SoftPair.Side s, boolean inPlace) throws InterruptedException {
        if (!inPlace) {
            return block(s);
        }
        CountDownLatch release = SoftPair.holdLoop(SoftPair.engineOf(s.qp).channel().eventLoop());
        try {
            return spin(s); // only this thread's reads can bring it
        } finally {
            release.countDown();
        }
    }

    /**
     * {@code post} runs, then one completion on the receiving side {@code s}: in place, with {@code s}'s loop held
     * from before {@code post} (only the polling thread can read what arrives; held only while it spins, the loop
     * could read all of it first on a loaded machine: a CI run did), else waited for.
     */
    private static Completion receiveAfter(SoftPair.Side s, SoftPair.Side sender, boolean inPlace, Runnable post)
            throws InterruptedException {
        if (!inPlace) {
            post.run();
            return block(s);
        }
        io.netty.channel.EventLoop loop = SoftPair.engineOf(s.qp).channel().eventLoop();
        assertNotSame(SoftPair.engineOf(sender.qp).channel().eventLoop(), loop, "the sender must send while the loop is held");
        CountDownLatch release = SoftPair.holdLoop(loop);
        try {
            post.run();
            return spin(s);
        } finally {
            release.countDown();
        }
    }

    private static void assertPlaced(SoftPair.Side s, boolean inPlace) {
        System.out.println("DirectPlacementTest: rx " + counter(s, "rxBytes") + " octets in " + counter(s, "rxFpdus") + " FPDUs");
        assertTrue(counter(s, "rxDirectFpdus") > 0, "no payload was read straight into its target");
        assertTrue(counter(s, "rxDirectBytes") > 0);
        if (inPlace) {
            assertTrue(counter(s, "rxInPlaceBytes") > 0);
        }
        System.out.println("DirectPlacementTest: " + (inPlace ? "in place" : "loop") + ": " + counter(s, "rxDirectFpdus")
                + " FPDUs, " + counter(s, "rxDirectBytes") + " of " + counter(s, "rxBytes") + " octets placed directly");
    }

    @ParameterizedTest(name = "polling thread reads: {0}")
    @ValueSource(booleans = {false, true})
    void bulkWritesLandByteForByte(boolean inPlace) throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            int len = 5 * MIB + 12_345;
            byte[] data = pattern(len, 10);
            ByteBuffer src = ByteBuffer.allocateDirect(len + 333).position(333);
            src.put(data);
            ByteBuffer dst = ByteBuffer.allocateDirect(len + 1000);
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion rb = p.b.pd.register(ByteBuffer.allocateDirect(64), Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(1, rb.sge()));
            Completion c = receiveAfter(p.b, p.a, inPlace, () -> {
                p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(s, 333, len).remote(d.stag(), 777));
                p.a.qp.postSend(SendWr.send().id(2).local(s, 333, 16)); // behind the Write: its arrival means it landed
            });
            assertEquals(CompletionStatus.SUCCESS, c.status());
            assertArrayEquals(data, bytes(dst, 777, len));
            assertPlaced(p.b, inPlace);
        }
    }

    @ParameterizedTest(name = "polling thread reads: {0}")
    @ValueSource(booleans = {false, true})
    void bulkReadsLandByteForByte(boolean inPlace) throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            int len = 3 * MIB + 7;
            byte[] data = pattern(len, 11);
            ByteBuffer src = ByteBuffer.allocateDirect(len + 50).position(50);
            src.put(data);
            ByteBuffer sink = ByteBuffer.allocateDirect(len + 4097);
            MemoryRegion s = p.b.pd.register(src, Access.LOCAL_WRITE, Access.REMOTE_READ);
            MemoryRegion d = p.a.pd.register(sink, Access.LOCAL_WRITE);
            // in place, A's loop is held before the Read Request is posted: the poster sends it in place (the stream is
            // idle), B's loop answers, and only A's polling thread can read the Read Responses
            Completion c = receiveAfter(p.a, p.b, inPlace,
                    () -> p.a.qp.postSend(SendWr.rdmaRead().id(3).local(d, 4097, len).remote(s.stag(), 50).signaled()));
            assertEquals(CompletionStatus.SUCCESS, c.status());
            assertEquals(CompletionOpcode.RDMA_READ, c.opcode());
            assertArrayEquals(data, bytes(sink, 4097, len));
            assertPlaced(p.a, inPlace);
        }
    }

    @ParameterizedTest(name = "polling thread reads: {0}")
    @ValueSource(booleans = {false, true})
    void bulkSendsLandByteForByte(boolean inPlace) throws Exception {
        try (SoftPair p = new SoftPair()) {
            p.connB();
            int len = MIB + 3;
            int messages = 4;
            ByteBuffer src = ByteBuffer.allocateDirect(messages * len);
            byte[][] data = new byte[messages][];
            for (int i = 0; i < messages; i++) {
                data[i] = pattern(len, 20 + i);
                src.put(data[i]);
            }
            ByteBuffer dst = ByteBuffer.allocateDirect(messages * (len + 91));
            MemoryRegion s = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion d = p.b.pd.register(dst, Access.LOCAL_WRITE);
            for (int i = 0; i < messages; i++) {
                p.b.qp.postRecv(RecvWr.of(i, d.sge(i * (len + 91) + 91, len)));
            }
            for (int i = 0; i < messages; i++) {
                // the first receive holds B's loop before anything is sent; the later messages are read in place too
                Completion c = i == 0 ? receiveAfter(p.b, p.a, inPlace, () -> {
                    for (int j = 0; j < messages; j++) {
                        p.a.qp.postSend(SendWr.send().id(j).local(s, j * len, len));
                    }
                }) : receive(p.b, inPlace);
                assertEquals(CompletionStatus.SUCCESS, c.status());
                assertEquals(i, c.id());
                assertEquals(len, c.byteLength());
                assertArrayEquals(data[i], bytes(dst, i * (len + 91) + 91, len), "message " + i);
            }
            assertPlaced(p.b, inPlace);
        }
    }
}
