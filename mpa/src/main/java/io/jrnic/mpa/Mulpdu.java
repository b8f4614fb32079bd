package io.jrnic.mpa;

/** Maximum ULPDU length for a given TCP maximum segment size (RFC 5044 section 4, MULPDU). */
public final class Mulpdu {
    private Mulpdu() {
    }

    /**
     * The largest ULPDU whose FPDU fits in one segment of {@code mss} octets wherever it starts
     * in the stream: {@code mss - 6 - mss mod 4 - markerAllowance}, where the marker allowance is
     * {@code 4 * ceil(mss / 512)} with markers (an {@code mss}-octet stretch of the stream holds at
     * most that many marker positions) and 0 without. Capped at 65535.
     *
     * @throws IllegalArgumentException when not even an empty ULPDU fits
     */
    public static int fromMss(int mss, boolean markers) {
        int allowance = markers ? Markers.LENGTH * ((mss + Markers.INTERVAL - 1) / Markers.INTERVAL) : 0;
        int mulpdu = mss - Markers.FRAMING_OVERHEAD - (mss & 3) - allowance;
        if (mss <= 0 || mulpdu < 0) {
            throw new IllegalArgumentException("MSS " + mss + " cannot carry an FPDU");
        }
        return Math.min(mulpdu, Markers.MAX_ULPDU_LENGTH);
    }

    /**
     * The MULPDU of a stream whose TCP reports {@code mss}: {@link #fromMss} of the MSS taken to at least 128 and at
     * most 16384 with markers (so that a marker's FPDUPTR, 16 bits, can always reach back to its FPDU's start) or
     * 65541 without (an FPDU of a 16-bit ULPDU length and its framing).
     */
    public static int forStream(long mss, boolean markers) {
        long most = markers ? 16384 : Markers.MAX_ULPDU_LENGTH + Markers.FRAMING_OVERHEAD;
        return fromMss((int) Math.max(128, Math.min(mss, most)), markers);
    }
}
