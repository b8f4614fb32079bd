package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.RtrType;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the copy path groups FPDUs into writes: a batch is written once it holds 64 KiB, except that a message's
 * short last FPDU joins the write before it (one TCP segment fewer per message: at the MSS a loopback stream reports,
 * 32,768, a 64 KiB WRITE is two FPDUs of 32 KiB, which fill the batch, and one of 40 payload octets, which went out
 * as a write of its own: strace showed write 65536, then write 60).
 */
class TransmitterBatchTest {
    /** The MULPDU of a loopback stream (MSS 32,768, RFC 5044 section 4: MSS - 6): FPDUs of 32 KiB. */
    private static final int MULPDU = 32762;
    private static final int FULL_PAYLOAD = MULPDU - 14; // minus the tagged DDP/RDMAP header

    /** FPDUs per write the channel was given, for one RDMA WRITE of {@code length} octets from heap memory. */
    private static List<Integer> fpdusPerWrite(int length) {
        EmbeddedQp e = EmbeddedQp.bind(new StreamParams(true, false, false, MULPDU, 4, 4, RtrType.NONE, true, 0));
        QpEngine qp = e.qp();
        EmbeddedChannel ch = e.ch();
        MemoryTable table = e.table();
        List<SqEntry> retired = e.retired();
        SoftRegion r = table.register(Unpooled.wrappedBuffer(new byte[length]), 0, AccessFlags.LOCAL_WRITE, 1, 0);
        SqEntry write = new SqEntry().reuse("write", SqOpcode.RDMA_WRITE);
        write.sgl.add(r, 0, length);
        write.remoteStag = 0x100;
        qp.inbox().postSend(write);
        int[] count = new int[1];
        long[] payload = new long[1];
        FpduDecoder dec = new FpduDecoder(true, false, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long lengthPos, CrcCheck crc) {
                assertEquals(CrcCheck.GOOD, crc);
                count[0]++;
                payload[0] += u.readableBytes() - 14;
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new AssertionError(error + " " + detail);
            }
        });
        List<Integer> perWrite = new ArrayList<>();
        for (int i = 0; i < 100 && retired.isEmpty(); i++) {
            ch.runPendingTasks();
            Object m;
            while ((m = ch.readOutbound()) != null) {
                if (m instanceof ByteBuf b) {
                    int before = count[0];
                    dec.feed(b);
                    perWrite.add(count[0] - before);
                }
                ReferenceCountUtil.release(m);
            }
        }
        assertEquals(1, retired.size());
        assertEquals(length, payload[0]);
        ch.finishAndReleaseAll();
        return perWrite;
    }

    @Test
    void aMessagesShortLastFpduGoesOutInTheWriteBeforeIt() {
        assertEquals(List.of(3), fpdusPerWrite(64 * 1024)); // was [2, 1]
    }

    @Test
    void aLongTailIsNotHeldBackAndOnlyTheShortLastFpduJoins() {
        assertEquals(List.of(2, 3), fpdusPerWrite(4 * FULL_PAYLOAD + 20)); // was [2, 2, 1]
    }

    @Test
    void fullFpdusStillGoOutOneBatchAtATime() {
        assertEquals(List.of(2, 2), fpdusPerWrite(4 * FULL_PAYLOAD));
    }
}
