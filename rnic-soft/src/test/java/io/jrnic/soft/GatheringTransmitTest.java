package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.SendWr;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gathering write over a real socket (the transport's writev of header buffers, views of registered memory and
 * CRC buffers): a WRITE, a SEND and a READ whose source is three SGEs of one memory kind, so that some FPDUs span two
 * SGEs (gathered, copied) and others lie in one (zero-copy for direct memory), arrive byte for byte, CRC checked; the
 * same again, so the second round goes through reused views.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GatheringTransmitTest {
    private static final int[] SGES = {10_000, 7_001, 150_003};

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap", "unpooled-direct", "pooled-direct"})
    void payloadsAcrossSgesOfEveryMemoryKindArriveIntact(String kind) throws Exception {
        int total = Arrays.stream(SGES).sum();
        byte[] bytes = new byte[total];
        new Random(kind.hashCode()).nextBytes(bytes);
        ByteBuf pooled = kind.equals("pooled-direct") ? PooledByteBufAllocator.DEFAULT.directBuffer(total) : null;
        try (SoftPair p = new SoftPair(ConnectOptions.defaults().mulpdu(16 * 1024), ConnectOptions.defaults(),
                AcceptOptions.defaults(), null)) {
            MemoryRegion src = switch (kind) {
                case "heap" -> p.a.pd.register(bytes.clone(), Access.LOCAL_WRITE);
                case "unpooled-direct" -> p.a.pd.register(ByteBuffer.allocateDirect(total).put(bytes).clear(),
                        Access.LOCAL_WRITE);
                default -> p.a.pd.register(pooled.writeBytes(bytes), Access.LOCAL_WRITE);
            };
            ByteBuffer dst = ByteBuffer.allocateDirect(total);
            ByteBuffer recv = ByteBuffer.allocateDirect(total);
            ByteBuffer back = ByteBuffer.allocateDirect(total);
            MemoryRegion dstMr = p.b.pd.register(dst, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ);
            MemoryRegion recvMr = p.b.pd.register(recv, Access.LOCAL_WRITE);
            MemoryRegion backMr = p.a.pd.register(back, Access.LOCAL_WRITE);
            RemoteBuffer rb = dstMr.advertise();
            // the SGEs in a shuffled order of the region: the message is SGE 2's bytes, then SGE 0's, then SGE 1's
            int[] at = {SGES[0] + SGES[1], 0, SGES[0]};
            int[] len = {SGES[2], SGES[0], SGES[1]};
            byte[] expected = new byte[total];
            for (int i = 0, o = 0; i < 3; o += len[i], i++) {
                System.arraycopy(bytes, at[i], expected, o, len[i]);
            }
            for (int round = 0; round < 2; round++) {
                p.b.qp.postRecv(RecvWr.of(round, recvMr.sge(0, total)));
                p.a.qp.postSend(SendWr.rdmaWrite().id(1).local(src.sge(at[0], len[0]), src.sge(at[1], len[1]),
                        src.sge(at[2], len[2])).remote(rb, 0).signaled());
                p.a.qp.postSend(SendWr.send().id(2).local(src.sge(at[0], len[0]), src.sge(at[1], len[1]),
                        src.sge(at[2], len[2])).signaled());
                p.a.qp.postSend(SendWr.rdmaRead().id(3).local(backMr.sge(0, total)).remote(rb, 0).signaled());
                var done = p.a.await(3);
                for (int i = 0; i < 3; i++) {
                    assertEquals(CompletionStatus.SUCCESS, done.get(i).status(), done.get(i).toString());
                    assertEquals(total, done.get(i).byteLength());
                }
                Completion r = p.b.awaitOne();
                assertEquals(CompletionStatus.SUCCESS, r.status(), r.toString());
                assertArrayEquals(expected, copy(dst), "write, round " + round);
                assertArrayEquals(expected, copy(recv), "send, round " + round);
                assertArrayEquals(expected, copy(back), "read response, round " + round);
                for (ByteBuffer b : new ByteBuffer[] {dst, recv, back}) {
                    b.clear().put(new byte[total]).clear();
                }
            }
        } finally {
            if (pooled != null) {
                assertEquals(1, pooled.refCnt(), "every view of the pooled memory released");
                pooled.release();
            }
        }
    }

    private static byte[] copy(ByteBuffer b) {
        byte[] out = new byte[b.capacity()];
        b.duplicate().clear().get(out);
        return out;
    }
}
