package io.jrnic.interop.decode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Cuts a stream into TCP segment payloads. */
final class Segmenter {
    private Segmenter() {
    }

    /**
     * Random cuts of 8..maxSegment bytes, never fewer than 8 bytes of an FPDU in the segment where
     * it starts (tshark loses its place otherwise, wire reference section 6).
     */
    static List<byte[]> random(byte[] stream, List<Integer> fpduStarts, long seed, int maxSegment) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>();
        int pos = 0;
        while (pos < stream.length) {
            int next = pos + 8 + r.nextInt(maxSegment - 7);
            for (int s : fpduStarts) {
                if (s < next && next < s + 8) {
                    next = s + 8;
                }
            }
            if (stream.length - next < 8) {
                next = stream.length;
            }
            out.add(Arrays.copyOfRange(stream, pos, next));
            pos = next;
        }
        return out;
    }

    /** One whole FPDU per segment. */
    static List<byte[]> perFpdu(byte[] stream, List<Integer> fpduStarts) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < fpduStarts.size(); i++) {
            int end = i + 1 < fpduStarts.size() ? fpduStarts.get(i + 1) : stream.length;
            out.add(Arrays.copyOfRange(stream, fpduStarts.get(i), end));
        }
        return out;
    }

    /** True if some segment holds the start of two FPDUs, and some FPDU spans two segments. */
    static boolean mixes(List<byte[]> segments, List<Integer> fpduStarts, int length) {
        List<Integer> cuts = new ArrayList<>();
        int p = 0;
        for (byte[] s : segments) {
            cuts.add(p);
            p += s.length;
        }
        boolean several = false;
        boolean split = false;
        for (int i = 0; i < fpduStarts.size(); i++) {
            int start = fpduStarts.get(i);
            int end = i + 1 < fpduStarts.size() ? fpduStarts.get(i + 1) : length;
            int seg = segmentOf(cuts, start);
            several |= i + 1 < fpduStarts.size() && segmentOf(cuts, end) == seg;
            split |= segmentOf(cuts, end - 1) != seg;
        }
        return several && split;
    }

    private static int segmentOf(List<Integer> cuts, int pos) {
        int i = 0;
        while (i + 1 < cuts.size() && cuts.get(i + 1) <= pos) {
            i++;
        }
        return i;
    }
}
