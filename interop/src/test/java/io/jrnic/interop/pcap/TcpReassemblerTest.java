package io.jrnic.interop.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TcpReassemblerTest {
    private static final TcpFlow FLOW = new TcpFlow(new Endpoint(InetAddress.getLoopbackAddress(), 1),
            new Endpoint(InetAddress.getLoopbackAddress(), 2));

    private final List<StreamChunk> chunks = new ArrayList<>();
    private final List<String> events = new ArrayList<>();
    private final StreamListener listener = new StreamListener() {
        @Override
        public void onStreamStart(TcpFlow flow, long frame, boolean fromSyn) {
            events.add("start " + frame + " " + fromSyn);
        }

        @Override
        public void onChunk(TcpFlow flow, StreamChunk chunk) {
            chunks.add(chunk);
        }

        @Override
        public void onGap(TcpFlow flow, long streamOffset, long length, long frame) {
            events.add("gap " + streamOffset + "+" + length + " @" + frame);
        }
    };

    private long frame;

    private static byte[] bytes(int from, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (from + i);
        }
        return b;
    }

    private TcpSegment seg(long seq, int flags, byte[] payload) {
        return new TcpSegment(++frame, frame * 1000, FLOW, seq & 0xFFFFFFFFL, flags, payload, 0);
    }

    private byte[] stream() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        long expect = chunks.isEmpty() ? 0 : chunks.get(0).streamOffset();
        for (StreamChunk c : chunks) {
            assertEquals(expect, c.streamOffset());
            o.writeBytes(c.data());
            expect = c.end();
        }
        return o.toByteArray();
    }

    @Test
    void ordersFromTheSynAcrossSequenceWrap() {
        long isn = 0xFFFFFFF0L;
        TcpReassembler r = new TcpReassembler(listener);
        r.accept(seg(isn, TcpSegment.SYN, new byte[0]));
        r.accept(seg(isn + 1, TcpSegment.ACK, bytes(0, 10)));
        r.accept(seg(isn + 21, TcpSegment.ACK, bytes(20, 10)));   // out of order, after the wrap
        r.accept(seg(isn + 11, TcpSegment.ACK, bytes(10, 10)));   // fills the hole, crosses the wrap
        r.finish();
        assertArrayEquals(bytes(0, 30), stream());
        assertEquals(List.of(2L, 4L, 3L), chunks.stream().map(StreamChunk::frame).toList());
        assertEquals(List.of("start 1 true"), events);
    }

    @Test
    void retransmissionsDuplicatesAndOverlapsAreTrimmed() {
        TcpReassembler r = new TcpReassembler(listener);
        r.accept(seg(100, TcpSegment.SYN, new byte[0]));
        r.accept(seg(101, 0, bytes(0, 8)));
        r.accept(seg(101, 0, bytes(0, 8)));         // retransmission
        r.accept(seg(105, 0, bytes(4, 8)));         // overlap: 4 new bytes
        r.accept(seg(121, 0, bytes(20, 4)));        // out of order
        r.accept(seg(121, 0, bytes(20, 4)));        // duplicate of a buffered segment
        r.accept(seg(113, 0, bytes(12, 10)));       // overlaps the buffered one
        r.finish();
        assertArrayEquals(bytes(0, 24), stream());
        assertEquals(List.of(2L, 4L, 7L, 5L), chunks.stream().map(StreamChunk::frame).toList());
        assertEquals(4, chunks.get(1).data().length);
        assertEquals(2, chunks.get(3).data().length);
    }

    @Test
    void withoutSynStartsAtTheFirstSegment() {
        TcpReassembler r = new TcpReassembler(listener);
        r.accept(seg(5000, 0, bytes(0, 3)));
        r.accept(seg(5003, 0, bytes(3, 3)));
        assertArrayEquals(bytes(0, 6), stream());
        assertEquals(List.of("start 1 false"), events);
    }

    @Test
    void holesAreReportedAtTheEndAndOverTheMemoryBound() {
        TcpReassembler r = new TcpReassembler(listener, 16);
        r.accept(seg(0, TcpSegment.SYN, new byte[0]));
        r.accept(seg(1, 0, bytes(0, 4)));
        r.accept(seg(9, 0, bytes(8, 10)));          // hole 4..8, 10 buffered
        assertEquals(4, stream().length);
        r.accept(seg(19, 0, bytes(18, 10)));        // 20 buffered > 16: the hole is given up
        assertEquals(List.of("start 1 true", "gap 4+4 @3"), events);
        r.accept(seg(31, 0, bytes(30, 2)));         // hole 28..30
        r.finish();
        assertEquals(List.of("start 1 true", "gap 4+4 @3", "gap 28+2 @5"), events);
        assertEquals(30 - 2 - 4, chunks.stream().mapToInt(c -> c.data().length).sum() - 2);
    }

    @Test
    void missingCapturedBytesBecomeAGap() {
        TcpReassembler r = new TcpReassembler(listener);
        r.accept(seg(0, TcpSegment.SYN, new byte[0]));
        r.accept(new TcpSegment(2, 0, FLOW, 1, 0, bytes(0, 3), 5));
        r.accept(seg(9, 0, bytes(8, 2)));
        assertEquals(List.of("start 1 true", "gap 3+5 @2"), events);
        assertEquals(List.of(0L, 8L), chunks.stream().map(StreamChunk::streamOffset).toList());
    }

    @Test
    void aNewSynWithAnotherIsnStartsANewStream() {
        TcpReassembler r = new TcpReassembler(listener);
        r.accept(seg(0, TcpSegment.SYN, new byte[0]));
        r.accept(seg(1, 0, bytes(0, 2)));
        r.accept(seg(0, TcpSegment.SYN, new byte[0]));    // same ISN: retransmitted SYN
        r.accept(seg(900, TcpSegment.SYN, new byte[0]));
        r.accept(seg(901, 0, bytes(0, 2)));
        assertEquals(List.of("start 1 true", "start 4 true"), events);
        assertEquals(List.of(0L, 0L), chunks.stream().map(StreamChunk::streamOffset).toList());
    }
}
