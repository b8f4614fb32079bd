package io.jrnic.interop.decode;

import io.jrnic.mpa.Markers;

/**
 * Keeps the raw FPDU-stream bytes of the current chunk and a short tail of the previous ones so
 * that the PAD octets of a just-framed FPDU can be checked (RFC 5044 section 4.1: PAD is zero).
 * Local helper: {@code FpduDecoder} frames the pad but does not report its value.
 */
final class PadWindow {
    private static final int TAIL = 16;  // pad (3) + trailing marker (4) + CRC (4) fit in it
    private final boolean markers;
    private byte[] data = new byte[0];
    private long start;                  // stream position of data[0]

    PadWindow(boolean markers) {
        this.markers = markers;
    }

    /** Appends a chunk that starts at stream position {@code position}, keeping a short tail. */
    void next(byte[] chunk, int off, int len, long position) {
        int keep = start + data.length == position ? Math.min(TAIL, data.length) : 0;
        byte[] d = new byte[keep + len];
        System.arraycopy(data, data.length - keep, d, 0, keep);
        System.arraycopy(chunk, off, d, keep, len);
        data = d;
        start = position - keep;
    }

    /** Stream position of logical byte {@code k} of the FPDU whose ULPDU_Length is at {@code lengthPos}. */
    long raw(long lengthPos, long k) {
        long raw = lengthPos + k;
        if (markers) {
            long m = (lengthPos / Markers.INTERVAL + 1) * Markers.INTERVAL;
            while (m <= raw) {
                raw += Markers.LENGTH;
                m += Markers.INTERVAL;
            }
        }
        return raw;
    }

    /** The non-zero pad bytes as hex, "" when all zero, null when they are not in the window. */
    String nonZeroPad(long lengthPos, int ulpduLength) {
        int pad = Markers.pad(ulpduLength);
        StringBuilder b = new StringBuilder();
        boolean bad = false;
        for (int i = 0; i < pad; i++) {
            long p = raw(lengthPos, 2L + ulpduLength + i);
            if (p < start || p >= start + data.length) {
                return null;
            }
            int v = data[(int) (p - start)] & 0xFF;
            bad |= v != 0;
            b.append(String.format("%02x", v));
        }
        return bad ? b.toString() : "";
    }
}
