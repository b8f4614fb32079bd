package io.jrnic.mpa;

/**
 * FPDU and marker geometry (RFC 5044 sections 4.1 to 4.3). Stream positions count from the
 * first octet of the first FPDU in one direction (position 0); a 4-byte marker sits at every
 * multiple of 512. An FPDU that starts on a multiple of 512 begins with a marker whose FPDUPTR
 * is 0 (the "leading" marker); every other marker of the FPDU (an "interior" one) carries its
 * distance back to the FPDU's ULPDU_Length field. A marker on the octet after the CRC belongs
 * to the next FPDU. FPDUs are multiples of 4 octets, so from an aligned start markers fall
 * only before ULPDU_Length, inside the ULPDU, or between PAD and CRC.
 */
public final class Markers {
    public static final int INTERVAL = 512;
    public static final int LENGTH = 4;
    /** Bytes of ULPDU_Length plus CRC around the ULPDU and pad. */
    public static final int FRAMING_OVERHEAD = 6;
    public static final int MAX_ULPDU_LENGTH = 0xFFFF;
    /** The largest FPDUPTR the 16-bit field can hold with its two low bits zero. */
    public static final int MAX_FPDUPTR = 0xFFFC;

    private Markers() {
    }

    /** PAD: 0..3 so that 2 + ULPDU_Length + PAD is a multiple of 4 (RFC 5044 section 4.1). */
    public static int pad(int ulpduLength) {
        return -(2 + ulpduLength) & 3;
    }

    /** ULPDU_Length + ULPDU + PAD + CRC: the FPDU without markers. */
    public static int contentLength(int ulpduLength) {
        return FRAMING_OVERHEAD + ulpduLength + pad(ulpduLength);
    }

    /** True when an FPDU starting at {@code fpduStart} begins with a marker. */
    public static boolean leadingMarker(long fpduStart) {
        return fpduStart % INTERVAL == 0;
    }

    /** The first marker position strictly after {@code lengthPos}. */
    public static long nextMarker(long lengthPos) {
        return (lengthPos / INTERVAL + 1) * INTERVAL;
    }

    /** Markers strictly inside an FPDU whose ULPDU_Length sits at {@code lengthPos}. */
    public static int interiorMarkers(long lengthPos, int contentLength) {
        int first = (int) (nextMarker(lengthPos) - lengthPos); // content octets before the first one
        return contentLength <= first ? 0 : 1 + (contentLength - first - 1) / (INTERVAL - LENGTH);
    }

    /** Octets on the wire of an FPDU starting at {@code fpduStart}, markers included. */
    public static int rawLength(long fpduStart, boolean markers, int ulpduLength) {
        int content = contentLength(ulpduLength);
        if (!markers) {
            return content;
        }
        int lead = leadingMarker(fpduStart) ? LENGTH : 0;
        return lead + content + LENGTH * interiorMarkers(fpduStart + lead, content);
    }

    /**
     * The most octets an FPDU carrying a ULPDU of {@code ulpduLength} takes on the wire wherever it starts (FPDUs
     * start on multiple of 4): with markers, the most markers its octets can hold.
     */
    public static int maxRawLength(boolean markers, int ulpduLength) {
        int most = 0;
        for (int start = 0; start < INTERVAL; start += 4) {
            most = Math.max(most, rawLength(start, markers, ulpduLength));
        }
        return most;
    }

    /**
     * The largest ULPDU whose FPDU, starting at stream position {@code fpduStart} (a multiple of 4), takes at most
     * {@code rawBudget} octets on the wire, markers included; -1 when not even an empty ULPDU fits. Not capped at
     * 65535 nor by the FPDUPTR's 16 bits (the caller caps).
     */
    public static int maxUlpduWithin(long fpduStart, boolean markers, int rawBudget) {
        if (!markers) {
            int c = rawBudget & ~3;
            return c < 8 ? -1 : c - FRAMING_OVERHEAD;
        }
        int room = rawBudget - (leadingMarker(fpduStart) ? LENGTH : 0);
        long lengthPos = fpduStart + (leadingMarker(fpduStart) ? LENGTH : 0);
        if (room < 8) {
            return -1;
        }
        // content c (ULPDU_Length .. CRC, a multiple of 4) fits when c + 4 * interior markers <= room; interior
        // markers never exceed 1 + (c - 1) / 508, so this c fits, and the largest is at most a few steps above it
        int c = (room - LENGTH * (1 + (room - 1) / (INTERVAL - LENGTH))) & ~3;
        while (c + 4 <= room && c + 4 + LENGTH * interiorMarkers(lengthPos, c + 4) <= room) {
            c += 4;
        }
        if (c < 8 || c + LENGTH * interiorMarkers(lengthPos, c) > room) {
            return -1;
        }
        return c - FRAMING_OVERHEAD;
    }

    /** The largest FPDUPTR an FPDU at {@code fpduStart} would carry (0 with no interior marker). */
    public static int maxFpduPtr(long fpduStart, int ulpduLength) {
        long lengthPos = fpduStart + (leadingMarker(fpduStart) ? LENGTH : 0);
        int k = interiorMarkers(lengthPos, contentLength(ulpduLength));
        return k == 0 ? 0 : (int) (nextMarker(lengthPos) - lengthPos) + (k - 1) * INTERVAL;
    }
}
