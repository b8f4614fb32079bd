package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.rdmap.Terminate;
import io.jrnic.soft.mem.MemoryTable;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * A QP engine bound to an EmbeddedChannel in RTS, for tests that read what the transmitter writes: every send WR must
 * retire successfully and is collected in {@link #retired}, in order.
 */
record EmbeddedQp(QpEngine qp, EmbeddedChannel ch, MemoryTable table, List<SqEntry> retired) {

    static EmbeddedQp bind(StreamParams p) {
        MemoryTable table = new MemoryTable(16);
        List<SqEntry> retired = new ArrayList<>();
        QpEngine qp = new QpEngine(table, 1, 16, 16, new QpListener() {
            @Override
            public void transition(io.jrnic.verbs.QpTrigger trigger, Terminate terminate, boolean received) {
            }

            @Override
            public boolean sendRetired(SqEntry e, Status status, int byteLength, Terminate t, boolean received) {
                assertEquals(Status.SUCCESS, status);
                retired.add(e);
                return true;
            }

            @Override
            public boolean recvRetired(RqEntry e, Status status, RecvInfo info) {
                return true;
            }
        });
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.pipeline().addLast("mpa", new ChannelInboundHandlerAdapter());
        qp.bind(ch, p, "mpa", null, null);
        ch.runPendingTasks();
        return new EmbeddedQp(qp, ch, table, retired);
    }

    /**
     * The ULPDUs written to the channel since the last call (CRC on, markers off), each checked good and copied; the
     * channel's outbound messages are released.
     */
    List<ByteBuf> ulpdusWritten() {
        return ulpdusWritten(ch);
    }

    /** {@link #ulpdusWritten()} for any engine's EmbeddedChannel. */
    static List<ByteBuf> ulpdusWritten(EmbeddedChannel ch) {
        List<ByteBuf> ulpdus = new ArrayList<>();
        FpduDecoder dec = new FpduDecoder(true, false, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long lengthPos, CrcCheck crc) {
                assertEquals(CrcCheck.GOOD, crc);
                ulpdus.add(Unpooled.copiedBuffer(u));
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new AssertionError(error + " " + detail);
            }
        });
        Object m;
        while ((m = ch.readOutbound()) != null) {
            if (m instanceof ByteBuf b) {
                dec.feed(b);
            }
            ReferenceCountUtil.release(m); // a ByteBuf, or a zero-copy WireMark
        }
        return ulpdus;
    }
}
