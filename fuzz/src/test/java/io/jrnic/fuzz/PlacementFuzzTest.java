package io.jrnic.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.soft.engine.PlacementPair;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Direct placement against the copy path on arbitrary traffic: rnic-soft's {@link PlacementPair} (a placing and a
 * copying engine, CRC on, two 96 KiB regions inside guard bytes, two receives posted) gets a fuzzer-built stream in
 * fuzzer-chosen reads. The input is a sequence of operations:
 * <ul>
 *   <li>{@code [u8 op < 0x80][u16 length][bytes]} a record of the stream. Bit 0 of op clear frames the bytes as one FPDU
 *       with a good CRC, set appends them raw. In a framed record bit 1 overwrites octets 2..5 (a tagged header's
 *       STag) with region (op &gt;&gt; 2) &amp; 1's STag, bit 3 octets 6..13 (its TaggedOffset) with a following u32
 *       modulo the region's length, bit 4 appends a following u16 of filler octets (so that a short input can
 *       describe the payloads of 16 KiB and more that are placed), and bit 5 flips a bit of the FPDU's CRC.</li>
 *   <li>{@code [u8 op >= 0x80][u16 size]} a read of the plan, taken in turn: op &amp; 3 = 0 reads as the event loop
 *       does (a lent slice's room, else the next head, else everything), 1 {@code size + 1} octets, 2 the loop's read
 *       cut to {@code size + 1}, 3 one octet. With no read in the plan every read is the loop's, and so is every read
 *       after the plan's first {@value #MAX_PLANNED_READS}.</li>
 * </ul>
 * The stream stops growing at 256 KiB.
 */
class PlacementFuzzTest {
    private static final int MAX_STREAM = 256 * 1024;
    /** Reads of the plan per input; the rest are the loop's (an input is a second or two of tiny reads otherwise). */
    private static final int MAX_PLANNED_READS = 256;

    /**
     * Properties ({@link PlacementPair#assertAlike}): no exception escapes either pipeline; both engines end in the
     * same state with the same receive completions and send back the same ULPDUs (a Read Response's header and length:
     * an unfenced Read may carry a later Write's octets, placed sooner on one side); no guard byte changes; and unless
     * a payload may have been placed unchecked (a bad CRC, or the stream ending inside an FPDU), every octet of both
     * regions is alike. Of the placing side, as {@code LiveEngineFuzzTest} asks of the copy path: at most one Terminate,
     * which decodes in the RFC layout; after one the QP is not in RTS; the QP ends in RTS, TERMINATE or ERROR.
     */
    @FuzzTest(maxDuration = "60s")
    void feed(byte[] data) throws Exception {
        FuzzInput in = new FuzzInput(data);
        byte[] initial = new byte[PlacementPair.LEN];
        Arrays.fill(initial, (byte) 0x3C);
        try (PlacementPair pair = new PlacementPair(initial)) {
            List<int[]> plan = new ArrayList<>();
            byte[] stream = stream(in, pair, plan);
            int[] turn = {0};
            pair.feed(stream, (room, head, left) -> {
                if (plan.isEmpty() || turn[0] >= MAX_PLANNED_READS) {
                    return loopRead(room, head, left);
                }
                int[] read = plan.get(turn[0]++ % plan.size());
                return switch (read[0]) {
                    case 0 -> loopRead(room, head, left);
                    case 1 -> read[1];
                    case 2 -> Math.min(loopRead(room, head, left), read[1]);
                    default -> 1;
                };
            });
            pair.assertAlike("input of " + data.length + " octets, stream of " + stream.length, !pair.placedUnchecked(),
                    false);
            // and what LiveEngineFuzzTest asks of the copy path, of the placing side
            TerminateProperties.check(pair.sentByPlacingSide(), pair.placingState(), "");
        }
    }

    private static int loopRead(int room, int head, int left) {
        return room > 0 ? room : head > 0 ? head : left;
    }

    private static byte[] stream(FuzzInput in, PlacementPair pair, List<int[]> plan) {
        FpduEncoder encoder = new FpduEncoder(true, false);
        ByteBuf out = Unpooled.buffer();
        while (in.remaining() >= 3 && out.readableBytes() < MAX_STREAM) {
            int op = in.u8();
            if (op >= 0x80) {
                plan.add(new int[] {op & 3, in.u16() + 1});
                continue;
            }
            byte[] bytes = in.bytes(in.u16());
            if ((op & 1) != 0) {
                out.writeBytes(bytes);
                continue;
            }
            if ((op & 2) != 0 && bytes.length >= 6) {
                setInt(bytes, 2, pair.stag((op >> 2) & 1));
            }
            if ((op & 8) != 0 && bytes.length >= 14) {
                long to = in.u32() % PlacementPair.LEN;
                setInt(bytes, 6, 0);
                setInt(bytes, 10, (int) to);
            }
            if ((op & 16) != 0) {
                int filler = in.u16();
                int at = bytes.length;
                bytes = Arrays.copyOf(bytes, Math.min(65_535, at + filler));
                for (int i = at; i < bytes.length; i++) {
                    bytes[i] = (byte) (i * 31 + op);
                }
            }
            encoder.encode(Unpooled.wrappedBuffer(bytes), null, out);
            if ((op & 32) != 0) {
                int crc = out.writerIndex() - 1;
                out.setByte(crc, out.getByte(crc) ^ 1);
            }
        }
        byte[] stream = ByteBufUtil.getBytes(out);
        out.release();
        return stream;
    }

    private static void setInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
