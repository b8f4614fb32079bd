package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.interop.pcap.Endpoint;
import io.jrnic.interop.pcap.StreamChunk;
import io.jrnic.interop.pcap.StreamListener;
import io.jrnic.interop.pcap.TcpFlow;
import io.jrnic.interop.pcap.TcpReassembler;
import io.jrnic.interop.pcap.TcpSegment;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * TcpReassembler (RFC 9293 section 3.4) with fuzzer-chosen segments, overlaps, duplicates and
 * arrival order. Input: ISN (u32), flags byte (bit 0 a small out-of-order bound), segment count
 * (u8 % 32), each segment (start u16, length u16, order key u8), then the stream bytes (at most
 * 4096). Segments are added for every byte no chosen segment covers, so the segments always
 * cover the stream; they arrive after the SYN, sorted by key (stable).
 */
class TcpReassemblerFuzzTest {
    private static final TcpFlow FLOW = flow();

    /**
     * Properties: with the default bound, the delivered chunks are contiguous from offset 0 and
     * their concatenation equals the stream, with no gap; with a small bound, every chunk holds
     * the stream's bytes at its offset and chunks plus gaps tile [0, stream length) in order.
     */
    @FuzzTest(maxDuration = "60s")
    void reassemble(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        long isn = in.u32();
        int flags = in.u8();
        boolean smallBound = (flags & 1) != 0;
        int n = in.u8() % 32;
        int[][] specs = new int[n][];
        for (int i = 0; i < n; i++) {
            specs[i] = new int[] {in.u16(), in.u16(), in.u8()};
        }
        byte[] stream = in.bytes(4096);
        int len = stream.length;

        List<int[]> segs = new ArrayList<>(); // {start, length, key}
        boolean[] covered = new boolean[len];
        for (int[] sp : specs) {
            if (len == 0) {
                break;
            }
            int start = sp[0] % len;
            int l = 1 + sp[1] % (len - start);
            segs.add(new int[] {start, l, sp[2]});
            Arrays.fill(covered, start, start + l, true);
        }
        for (int i = 0; i < len; ) {
            if (covered[i]) {
                i++;
                continue;
            }
            int j = i;
            while (j < len && !covered[j]) {
                j++;
            }
            segs.add(new int[] {i, j - i, (i * 31) & 0xFF});
            i = j;
        }
        segs.sort(Comparator.comparingInt(s -> s[2]));

        Listener listener = new Listener(stream);
        TcpReassembler r = new TcpReassembler(listener, smallBound ? 64 : TcpReassembler.DEFAULT_MAX_BUFFERED);
        r.accept(new TcpSegment(1, 0, FLOW, (isn - 1) & 0xFFFF_FFFFL, TcpSegment.SYN, new byte[0], 0));
        long frame = 2;
        for (int[] s : segs) {
            r.accept(new TcpSegment(frame, frame, FLOW, (isn + s[0]) & 0xFFFF_FFFFL, TcpSegment.ACK,
                    Arrays.copyOfRange(stream, s[0], s[0] + s[1]), 0));
            frame++;
        }
        r.finish();
        assertEquals(1, listener.starts, "one stream start, from the SYN");
        assertEquals(len, listener.next, "chunks and gaps tile the stream");
        if (!smallBound) {
            assertEquals(0, listener.gaps, "no gap with every byte sent");
            assertArrayEquals(stream, listener.delivered.toByteArray());
        }
    }

    static final class Listener implements StreamListener {
        final byte[] stream;
        final ByteArrayOutputStream delivered = new ByteArrayOutputStream();
        long next;
        int starts;
        int gaps;

        Listener(byte[] stream) {
            this.stream = stream;
        }

        @Override
        public void onStreamStart(TcpFlow flow, long frame, boolean fromSyn) {
            assertTrue(fromSyn);
            starts++;
        }

        @Override
        public void onChunk(TcpFlow flow, StreamChunk chunk) {
            assertEquals(next, chunk.streamOffset(), "chunks in order, no overlap");
            assertTrue(chunk.data().length > 0, "empty chunk");
            assertTrue(chunk.end() <= stream.length, "bytes beyond the stream");
            int at = (int) chunk.streamOffset();
            assertArrayEquals(Arrays.copyOfRange(stream, at, at + chunk.data().length), chunk.data(),
                    "chunk bytes at offset " + at);
            delivered.writeBytes(chunk.data());
            next = chunk.end();
        }

        @Override
        public void onGap(TcpFlow flow, long streamOffset, long length, long frame) {
            assertEquals(next, streamOffset, "gap in order");
            assertTrue(length > 0 && streamOffset + length <= stream.length, "gap length " + length);
            gaps++;
            next = streamOffset + length;
        }
    }

    private static TcpFlow flow() {
        try {
            return new TcpFlow(new Endpoint(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}), 4791),
                    new Endpoint(InetAddress.getByAddress(new byte[] {10, 0, 0, 2}), 4792));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
