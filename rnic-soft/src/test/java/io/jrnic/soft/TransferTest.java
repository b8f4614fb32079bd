package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.RtrType;
import io.jrnic.verbs.SendWr;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SEND, RDMA WRITE and RDMA READ of 0 B .. 16 MiB over loopback TCP, every byte verified, per framing mode. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransferTest {
    static final int[] SIZES = {0, 1, 3, 4095, 65536, 65537, 1 << 20, 16 << 20};
    static final int MAX = 16 << 20;

    @ParameterizedTest(name = "rev {0} crc {1} markers {2} mulpdu {3}")
    @CsvSource({"2, false, false, 0", "2, true, false, 0", "2, true, true, 0", "1, false, true, 1024",
            "2, true, false, 1400"})
    void writeReadAndSendOfEverySizeArriveIntact(int rev, boolean crc, boolean markers, int mulpdu) throws Exception {
        ConnectOptions co = ConnectOptions.defaults().mpaRevision(rev).crc(crc).markers(markers).mulpdu(mulpdu);
        if (rev == 2) {
            co = co.peerToPeer(RtrType.WRITE, RtrType.READ);
        }
        ConnectOptions lo = ConnectOptions.defaults().mpaRevision(rev).markers(markers).mulpdu(mulpdu);
        try (SoftPair p = new SoftPair(co, lo, AcceptOptions.defaults(), null)) {
            assertEquals(crc, p.connA.params().crc());
            assertEquals(rev, p.connA.params().mpaRevision());
            assertEquals(markers, p.connA.params().markers());
            byte[] src = new byte[MAX];
            new Random(rev * 31 + (crc ? 7 : 0) + (markers ? 3 : 0)).nextBytes(src);
            byte[] dst = new byte[MAX + 8];
            byte[] back = new byte[MAX];
            byte[] recv = new byte[MAX];
            MemoryRegion srcMr = p.a.pd.register(src, Access.LOCAL_WRITE);
            MemoryRegion backMr = p.a.pd.register(back, Access.LOCAL_WRITE);
            MemoryRegion dstMr = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            MemoryRegion recvMr = p.b.pd.register(recv, Access.LOCAL_WRITE);
            RemoteBuffer rb = dstMr.advertise();
            for (int size : SIZES) {
                Arrays.fill(dst, (byte) 0);
                Arrays.fill(back, (byte) 0);
                Arrays.fill(recv, (byte) 0);
                int off = size % 5;
                p.b.qp.postRecv(RecvWr.of(size, recvMr.sge(0, MAX)));
                p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge(0, size)).remote(rb, off).signaled());
                p.a.qp.postSend(SendWr.rdmaRead().id(2).local(backMr.sge(0, size)).remote(rb, off).signaled());
                p.a.qp.postSend(SendWr.send().id(3).local(srcMr.sge(0, size)).signaled());
                var done = p.a.await(3);
                for (int i = 0; i < 3; i++) {
                    Completion c = done.get(i);
                    assertEquals(CompletionStatus.SUCCESS, c.status(), size + " " + c + p.a.events + p.b.events);
                    assertEquals(i + 1, c.id(), "completions in posting order");
                    assertEquals(size, c.byteLength());
                }
                assertEquals(CompletionOpcode.RDMA_READ, done.get(1).opcode());
                Completion r = p.b.awaitOne();
                assertEquals(CompletionStatus.SUCCESS, r.status(), r.toString());
                assertEquals(size, r.byteLength());
                assertEquals(size, r.id());
                assertArrayEquals(Arrays.copyOf(src, size), Arrays.copyOfRange(dst, off, off + size), "write " + size);
                assertEquals(0, countNonZero(dst, 0, off) + countNonZero(dst, off + size, dst.length), "bytes outside the write");
                assertArrayEquals(Arrays.copyOf(src, size), Arrays.copyOf(back, size), "read " + size);
                assertArrayEquals(Arrays.copyOf(src, size), Arrays.copyOf(recv, size), "send " + size);
                assertEquals(0, countNonZero(recv, size, MAX), "bytes after the received message");
            }
            assertEquals(crc, p.connB().params().crc());
            assertEquals(markers, p.connB().params().markers());
        }
    }

    /**
     * Direct memory (a ByteBuffer and a pooled ByteBuf) takes the zero-copy transmit path for segments of
     * 4 KiB and more (WRITE, SEND, READ Response): every byte arrives, CRC checked, completions in order.
     */
    @ParameterizedTest(name = "crc {0} mulpdu {1} pooled {2}")
    @CsvSource({"true, 0, false", "false, 0, false", "true, 8192, true", "true, 1400, false"})
    void directMemoryIsSentZeroCopyAndArrivesIntact(boolean crc, int mulpdu, boolean pooled) throws Exception {
        ConnectOptions co = ConnectOptions.defaults().crc(crc).mulpdu(mulpdu);
        ConnectOptions lo = ConnectOptions.defaults().mulpdu(mulpdu);
        int max = 4 << 20;
        io.netty.buffer.ByteBuf pooledSrc = pooled ? io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(max) : null;
        try (SoftPair p = new SoftPair(co, lo, AcceptOptions.defaults(), null)) {
            byte[] bytes = new byte[max];
            new Random(crc ? 11 : 13).nextBytes(bytes);
            java.nio.ByteBuffer src = java.nio.ByteBuffer.allocateDirect(max).put(bytes).clear();
            java.nio.ByteBuffer dst = java.nio.ByteBuffer.allocateDirect(max);
            java.nio.ByteBuffer recv = java.nio.ByteBuffer.allocateDirect(max);
            java.nio.ByteBuffer back = java.nio.ByteBuffer.allocateDirect(max);
            MemoryRegion srcMr;
            if (pooled) {
                pooledSrc.writeBytes(bytes);
                srcMr = p.a.pd.register(io.jrnic.verbs.Memory.of(pooledSrc), Access.LOCAL_WRITE);
            } else {
                srcMr = p.a.pd.register(src, Access.LOCAL_WRITE);
            }
            MemoryRegion backMr = p.a.pd.register(back, Access.LOCAL_WRITE);
            MemoryRegion dstMr = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            MemoryRegion recvMr = p.b.pd.register(recv, Access.LOCAL_WRITE);
            RemoteBuffer rb = dstMr.advertise();
            for (int size : new int[] {4095, 4096, 65536, 100_003, max}) {
                p.b.qp.postRecv(RecvWr.of(size, recvMr.sge(0, max)));
                p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(srcMr.sge(0, size)).remote(rb, 0).signaled());
                p.a.qp.postSend(SendWr.rdmaRead().id(2).local(backMr.sge(0, size)).remote(rb, 0).signaled());
                p.a.qp.postSend(SendWr.send().id(3).local(srcMr.sge(0, size)).signaled());
                var done = p.a.await(3);
                for (int i = 0; i < 3; i++) {
                    assertEquals(CompletionStatus.SUCCESS, done.get(i).status(), size + " " + done.get(i));
                    assertEquals(i + 1, done.get(i).id(), "completions in posting order");
                    assertEquals(size, done.get(i).byteLength());
                }
                Completion r = p.b.awaitOne();
                assertEquals(CompletionStatus.SUCCESS, r.status(), r.toString());
                assertEquals(size, r.byteLength());
                byte[] expected = Arrays.copyOf(bytes, size);
                assertArrayEquals(expected, copy(dst, size), "write " + size);
                assertArrayEquals(expected, copy(back, size), "read " + size);
                assertArrayEquals(expected, copy(recv, size), "send " + size);
                for (java.nio.ByteBuffer b : new java.nio.ByteBuffer[] {dst, back, recv}) {
                    b.clear().put(new byte[max]).clear();
                }
            }
        } finally {
            if (pooledSrc != null) {
                pooledSrc.release();
            }
        }
    }

    private static byte[] copy(java.nio.ByteBuffer b, int size) {
        byte[] out = new byte[size];
        b.duplicate().clear().get(out);
        return out;
    }

    static int countNonZero(byte[] a, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                n++;
            }
        }
        return n;
    }
}
