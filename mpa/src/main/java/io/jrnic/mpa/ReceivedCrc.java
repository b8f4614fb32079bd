package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * The CRC check of received FPDUs (RFC 5044 section 4.1; a mismatch is the LLP error CRC_ERROR, 0x02, section 8),
 * for {@link FpduDecoder}, with what it saw for tools.
 *
 * <p>Readings: the CRC is first checked over every octet from the FPDU's first octet to the CRC field (both edge
 * markers covered, as {@link FpduEncoder} sends). If that fails and the FPDU has a leading marker (FPDUPTR 0) or a
 * marker just before the CRC, the readings without either edge marker are tried; the reading that matched is
 * counted per edge. A placed payload's CRC runs as its octets arrive ({@link #running}) and is finished over the
 * pad ({@link #finishRunning}). Not thread safe.
 */
public final class ReceivedCrc {
    private final FpduListener listener;
    private final MpaCrc crc32 = new MpaCrc();
    private int lastReceived;
    private int lastComputed;
    private long errors;
    private long leadingMarkerCovered;
    private long leadingMarkerNotCovered;
    private long trailingMarkerCovered;
    private long trailingMarkerNotCovered;

    ReceivedCrc(FpduListener listener) {
        this.listener = listener;
    }

    /**
     * Starts the running CRC of an FPDU whose payload is placed, over its first {@code length} octets at {@code index}
     * of {@code buf} (ULPDU_Length and the ULPDU's head); the payload's octets then go through {@link #running}.
     */
    MpaCrc startRunning(ByteBuf buf, int index, int length) {
        return crc32.reset().update(buf, index, length);
    }

    /** The running CRC of the FPDU being placed ({@link #startRunning}). */
    MpaCrc running() {
        return crc32;
    }

    /**
     * Checks the whole FPDU at {@code [at, crcAt)} of {@code buf} against the field at {@code crcAt}; {@code lead} and
     * {@code trailing}: it has a leading marker, a marker just before the CRC. A mismatch under every reading is
     * reported to the listener at {@code lengthPos} (the FPDU's ULPDU_Length).
     */
    CrcCheck check(ByteBuf buf, int at, int crcAt, boolean lead, boolean trailing, long lengthPos) {
        int received = buf.getInt(crcAt);
        int computed = crc32.reset().update(buf, at, crcAt - at).wireValue();
        lastReceived = received;
        lastComputed = computed;
        int skipLead = lead ? Markers.LENGTH : 0;
        int skipTrail = trailing ? Markers.LENGTH : 0;
        // readings in order: both edges covered, leading left out, trailing left out, both left out
        for (int reading = 0; reading < 4; reading++) {
            boolean withoutLead = (reading & 1) != 0;
            boolean withoutTrail = (reading & 2) != 0;
            if ((withoutLead && !lead) || (withoutTrail && !trailing)) {
                continue;
            }
            int from = at + (withoutLead ? skipLead : 0);
            int to = crcAt - (withoutTrail ? skipTrail : 0);
            int value = reading == 0 ? computed : crc32.reset().update(buf, from, to - from).wireValue();
            if (value == received) {
                countEdges(lead, withoutLead, trailing, withoutTrail);
                return CrcCheck.GOOD;
            }
        }
        return fail(lengthPos);
    }

    /**
     * Finishes the running CRC of a placed FPDU (markers off) over its {@code pad} octets at {@code padAt} of
     * {@code buf} and checks it against the field after them; a mismatch is reported at {@code start}.
     */
    CrcCheck finishRunning(ByteBuf buf, int padAt, int pad, long start) {
        int received = buf.getInt(padAt + pad);
        int computed = crc32.update(buf, padAt, pad).wireValue();
        lastReceived = received;
        lastComputed = computed;
        return received == computed ? CrcCheck.GOOD : fail(start);
    }

    private void countEdges(boolean lead, boolean withoutLead, boolean trailing, boolean withoutTrail) {
        if (lead) {
            if (withoutLead) {
                leadingMarkerNotCovered++;
            } else {
                leadingMarkerCovered++;
            }
        }
        if (trailing) {
            if (withoutTrail) {
                trailingMarkerNotCovered++;
            } else {
                trailingMarkerCovered++;
            }
        }
    }

    private CrcCheck fail(long position) {
        errors++;
        listener.onError(LlpError.CRC_ERROR, position, String.format(
                "CRC field %08x, computed %08x (wire byte order)", lastReceived, lastComputed));
        return CrcCheck.BAD;
    }

    /** The CRC field of the last FPDU checked, as an int of the wire bytes (see {@link MpaCrc}). */
    public int lastReceived() {
        return lastReceived;
    }

    /** The CRC computed for the last FPDU checked (both edge markers covered), wire order. */
    public int lastComputed() {
        return lastComputed;
    }

    /** FPDUs whose CRC matched under no reading. */
    public long errors() {
        return errors;
    }

    /** Good-CRC FPDUs with a leading marker whose CRC covered it. */
    public long leadingMarkerCovered() {
        return leadingMarkerCovered;
    }

    /** Good-CRC FPDUs with a leading marker whose CRC left it out. */
    public long leadingMarkerNotCovered() {
        return leadingMarkerNotCovered;
    }

    /** Good-CRC FPDUs with a marker just before the CRC whose CRC covered it. */
    public long trailingMarkerCovered() {
        return trailingMarkerCovered;
    }

    /** Good-CRC FPDUs with a marker just before the CRC whose CRC left it out. */
    public long trailingMarkerNotCovered() {
        return trailingMarkerNotCovered;
    }
}
