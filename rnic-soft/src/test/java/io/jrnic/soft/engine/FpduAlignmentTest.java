package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.Markers;
import io.jrnic.mpa.Mulpdu;
import io.jrnic.mpa.RtrType;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.MemoryTable;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * FPDU alignment with markers (RFC 5044: one FPDU per TCP segment): at MSS 1448, markers on, MULPDU from the MSS,
 * each FPDU of a long message is sized from its stream position so that it takes exactly the MSS on the wire,
 * markers included, until the message's last (a message from stream position 0); a message from another position
 * meets boundaries a marker precedes, where the FPDU ends 4 octets short and the next one's leading marker closes
 * the segment. Seen on the octets the transmitter writes to its channel.
 */
class FpduAlignmentTest {
    private static final int MSS = 1448;

    /** One decoded FPDU: where it starts in the stream (its leading marker included) and its ULPDU. */
    private record Fpdu(long start, byte[] ulpdu) {
    }

    @Test
    void withMarkersEveryFpduOfALongMessageFillsTheMssExactly() {
        int mulpdu = Mulpdu.fromMss(MSS, true);
        EmbeddedQp e = EmbeddedQp.bind(new StreamParams(true, true, false, mulpdu, 4, 4, RtrType.NONE, true, 0));
        QpEngine qp = e.qp();
        EmbeddedChannel ch = e.ch();
        MemoryTable table = e.table();
        List<SqEntry> retired = e.retired();

        int len = 1 << 20;
        byte[] data = new byte[len];
        new Random(5044).nextBytes(data);
        SoftRegion r = table.register(Unpooled.wrappedBuffer(data), 0, AccessFlags.LOCAL_WRITE, 1, 0);
        SqEntry write = new SqEntry().reuse("write", SqOpcode.RDMA_WRITE);
        write.sgl.add(r, 0, len);
        write.remoteStag = 0x100;
        SqEntry send = new SqEntry().reuse("send", SqOpcode.SEND);
        send.sgl.add(r, 0, len);
        qp.inbox().postSend(write);
        qp.inbox().postSend(send);
        List<Fpdu> fpdus = new ArrayList<>();
        FpduDecoder dec = new FpduDecoder(true, true, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long lengthPos, CrcCheck crc) {
                assertEquals(CrcCheck.GOOD, crc);
                byte[] b = new byte[u.readableBytes()];
                u.getBytes(u.readerIndex(), b);
                // a leading marker sits right before ULPDU_Length when the FPDU starts on a multiple of 512
                fpdus.add(new Fpdu(lengthPos % Markers.INTERVAL == Markers.LENGTH ? lengthPos - 4 : lengthPos, b));
            }

            @Override
            public void onError(LlpError error, long offset, String detail) {
                throw new AssertionError(error + " " + detail);
            }
        });
        for (int i = 0; i < 1000 && retired.size() < 2; i++) { // each round drains what the channel took
            ch.runPendingTasks();
            Object m;
            while ((m = ch.readOutbound()) != null) {
                if (m instanceof ByteBuf b) {
                    dec.feed(b);
                }
                ReferenceCountUtil.release(m);
            }
        }
        assertEquals(2, retired.size());
        long end = dec.streamPosition();
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        int shortEnds = 0;
        long base = 0; // the stream position of the current message's first FPDU: segments count from it
        boolean first = true;
        for (int i = 0; i < fpdus.size(); i++) {
            Fpdu f = fpdus.get(i);
            long next = i + 1 < fpdus.size() ? fpdus.get(i + 1).start() : end;
            boolean tagged = (f.ulpdu()[0] & 0x80) != 0;
            boolean last = (f.ulpdu()[0] & 0x40) != 0;
            int header = tagged ? TaggedHeader.HEADER_LENGTH : UntaggedHeader.HEADER_LENGTH;
            (tagged ? written : sent).write(f.ulpdu(), header, f.ulpdu().length - header);
            if (first) {
                base = f.start();
            }
            first = last;
            String at = "FPDU " + i + " at " + f.start() + " (message from " + base + ")";
            long start = f.start() - base;
            // an FPDU starts a segment, or its leading marker closes the segment before and its ULPDU_Length opens one
            boolean markerBefore = start % MSS != 0;
            if (markerBefore) {
                assertEquals(0, (start + Markers.LENGTH) % MSS, at + " starts a segment");
                assertEquals(0, f.start() % Markers.INTERVAL, at + " starts with a leading marker");
            }
            assertTrue(next - f.start() <= MSS + (markerBefore ? Markers.LENGTH : 0), at + " fits one segment");
            if (tagged) { // the WRITE starts at stream position 0: no boundary has a marker before it
                assertEquals(i * (long) MSS, f.start(), at);
                assertTrue(last || next - f.start() == MSS, at + " fills one segment");
            }
            if (!last && (next - base) % MSS != 0) {
                // no FPDU can end on a boundary a marker precedes: this one ends 4 octets short of it
                assertEquals(0, (next - base + Markers.LENGTH) % MSS, at + " ends on a boundary or 4 octets short");
                assertEquals(0, next % Markers.INTERVAL, at + ": a marker precedes the boundary");
                shortEnds++;
            }
        }
        assertArrayEquals(data, written.toByteArray());
        assertArrayEquals(data, sent.toByteArray());
        assertTrue(fpdus.stream().anyMatch(f -> f.ulpdu().length > mulpdu), "FPDUs meeting two markers carry more");
        // the SEND starts 4 octets past a multiple of 8: one boundary in 64 has a marker before it
        assertEquals(4, base % 8, "the SEND's start");
        assertTrue(shortEnds > 0 && shortEnds <= fpdus.size() / 2 / 64 + 1, "short ends: " + shortEnds);
        ch.finishAndReleaseAll();
    }
}
