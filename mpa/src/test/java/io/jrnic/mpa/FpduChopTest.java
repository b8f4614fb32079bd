package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A stream of many FPDUs decodes identically however TCP cuts it (RFC 5044 section 4). */
class FpduChopTest {

    /** Checks each ULPDU against the expected ones by content, offset and CRC result. */
    private static final class Checker implements FpduListener {
        final List<ByteBuf> expected;
        final long[] offsets;
        int next;
        int errors;

        Checker(List<ByteBuf> expected, long[] offsets) {
            this.expected = expected;
            this.offsets = offsets;
        }

        @Override
        public void onFpdu(ByteBuf ulpdu, long offset, CrcCheck crc) {
            if (next >= expected.size() || !ByteBufUtil.equals(expected.get(next), ulpdu) || offsets[next] != offset
                    || crc == CrcCheck.BAD) {
                errors++;
            }
            next++;
        }

        @Override
        public void onError(LlpError error, long streamOffset, String detail) {
            errors++;
        }
    }

    private static final class Stream {
        final List<ByteBuf> ulpdus = new ArrayList<>();
        long[] offsets;
        ByteBuf wire;
    }

    private static Stream build(boolean crc, boolean markers, Random rnd, boolean withMax) {
        Stream s = new Stream();
        FpduEncoder enc = new FpduEncoder(crc, markers);
        s.wire = Unpooled.buffer();
        int[] fixed = {0, 1, 2, 3, 4, 14, 18, 28, 506, 507, 508, 509, 1000, 1442, 2000};
        List<Integer> sizes = new ArrayList<>();
        for (int f : fixed) {
            sizes.add(f);
        }
        if (withMax) {
            sizes.add(-1); // the largest the encoder allows here: 65535 without markers
        }
        for (int i = 0; i < 20; i++) {
            sizes.add(rnd.nextInt(1500));
        }
        s.offsets = new long[sizes.size()];
        for (int i = 0; i < sizes.size(); i++) {
            int n = sizes.get(i) < 0 ? enc.maxUlpduLength() : sizes.get(i);
            byte[] b = new byte[n];
            rnd.nextBytes(b);
            ByteBuf u = Unpooled.wrappedBuffer(b);
            s.ulpdus.add(u);
            long before = enc.streamPosition();
            s.offsets[i] = before + (markers && before % 512 == 0 ? 4 : 0);
            enc.encode(u, s.wire);
        }
        if (withMax && !markers) {
            assertTrue(s.ulpdus.stream().anyMatch(u -> u.readableBytes() == 65535));
        }
        return s;
    }

    private static int decode(Stream s, boolean crc, boolean markers, ByteBuf... chunks) {
        Checker c = new Checker(s.ulpdus, s.offsets);
        FpduDecoder dec = new FpduDecoder(crc, markers, c);
        for (ByteBuf chunk : chunks) {
            dec.feed(chunk);
            assertFalse(chunk.isReadable());
        }
        assertEquals(0, dec.bufferedBytes());
        return c.errors + Math.abs(c.next - s.ulpdus.size());
    }

    @ParameterizedTest
    @CsvSource({"false,false", "true,false", "false,true", "true,true"})
    void splitInTwoAtEveryByteBoundaryDecodesIdentically(boolean crc, boolean markers) {
        Stream s = build(crc, markers, new Random(5044), false);
        int n = s.wire.readableBytes();
        assertTrue(n > 15_000);
        int bad = 0;
        for (int p = 0; p <= n; p++) {
            if (decode(s, crc, markers, s.wire.slice(0, p), s.wire.slice(p, n - p)) != 0) {
                bad++;
            }
        }
        assertEquals(0, bad, "split positions that decoded differently");
        s.wire.release();
    }

    /**
     * The same with a maximum-size FPDU in the stream (65535 octets without markers). Every
     * boundary near each FPDU edge and every 61st octet elsewhere: every boundary of a 65 KiB
     * FPDU would cost O(n^2) octets compared (the random chops below cover it further).
     */
    @ParameterizedTest
    @CsvSource({"false,false", "true,false", "false,true", "true,true"})
    void splitInTwoAroundAMaximumFpduDecodesIdentically(boolean crc, boolean markers) {
        Stream s = build(crc, markers, new Random(5041), true);
        int n = s.wire.readableBytes();
        TreeSet<Integer> edges = new TreeSet<>();
        for (long offset : s.offsets) {
            edges.add((int) offset);
        }
        int bad = 0;
        int tried = 0;
        for (int p = 0; p <= n; p++) {
            Integer below = edges.floor(p);
            Integer above = edges.ceiling(p);
            boolean nearEdge = (below != null && p - below < 600) || (above != null && above - p < 600) || p == n;
            if (nearEdge || p % 61 == 0) {
                tried++;
                if (decode(s, crc, markers, s.wire.slice(0, p), s.wire.slice(p, n - p)) != 0) {
                    bad++;
                }
            }
        }
        assertTrue(tried > 5000);
        assertEquals(0, bad, "split positions that decoded differently");
        s.wire.release();
    }

    @ParameterizedTest
    @CsvSource({"false,false", "true,false", "false,true", "true,true"})
    void randomMultiChopDecodesIdentically(boolean crc, boolean markers) {
        Random rnd = new Random(6581);
        Stream s = build(crc, markers, rnd, true);
        int n = s.wire.readableBytes();
        for (int round = 0; round < 300; round++) {
            List<ByteBuf> chunks = new ArrayList<>();
            int maxChunk = round % 3 == 0 ? 8 : round % 3 == 1 ? 700 : 70000;
            for (int p = 0; p < n; ) {
                int len = Math.min(n - p, 1 + rnd.nextInt(maxChunk));
                chunks.add(s.wire.slice(p, len));
                p += len;
            }
            assertEquals(0, decode(s, crc, markers, chunks.toArray(new ByteBuf[0])), "round " + round);
        }
        s.wire.release();
    }
}
