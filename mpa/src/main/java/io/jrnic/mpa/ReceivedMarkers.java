package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * The markers inside received FPDUs (RFC 5044 section 4.3), for {@link FpduDecoder}: each marker's FPDUPTR is checked
 * against the true FPDU start (a mismatch is the LLP error MARKER_MISMATCH, 0x03, section 8) and the markers are
 * removed from a ULPDU they cut. Its 16 reserved bits are counted when not zero, and otherwise ignored. Not thread
 * safe.
 */
public final class ReceivedMarkers {
    private final FpduListener listener;
    private ByteBuf reassembly;
    private long seen;
    private long withReservedBits;
    private long errors;

    ReceivedMarkers(FpduListener listener) {
        this.listener = listener;
    }

    /**
     * The marker at {@code index} of {@code buf}, stream position {@code markerPos}, should point {@code expectedPtr}
     * octets back to its FPDU's start; a mismatch is reported to the listener at the marker's position.
     */
    boolean check(ByteBuf buf, int index, long markerPos, long expectedPtr) {
        seen++;
        int reserved = buf.getUnsignedShort(index);
        int ptr = buf.getUnsignedShort(index + 2) & Markers.MAX_FPDUPTR; // low two bits read as 0
        if (reserved != 0) {
            withReservedBits++;
        }
        if (ptr == expectedPtr) {
            return true;
        }
        errors++;
        listener.onError(LlpError.MARKER_MISMATCH, markerPos,
                "FPDUPTR " + ptr + " at stream offset " + markerPos + ", FPDU start is " + expectedPtr + " back");
        return false;
    }

    /**
     * The ULPDU of {@code u} octets after the ULPDU_Length at {@code lengthAt} of {@code buf} (stream position
     * {@code lengthPos}) without the markers inside it, in a buffer reused by the next call.
     */
    ByteBuf remove(ByteBuf buf, int lengthAt, long lengthPos, int u) {
        if (reassembly == null || reassembly.capacity() < u) {
            reassembly = PartialFpdu.grow(reassembly, u);
        }
        reassembly.clear();
        int rel = 2; // stream distance from ULPDU_Length
        int nextRel = (int) (Markers.nextMarker(lengthPos) - lengthPos);
        int left = u;
        while (left > 0) {
            if (rel == nextRel) {
                rel += Markers.LENGTH;
                nextRel += Markers.INTERVAL;
                continue;
            }
            int n = Math.min(left, nextRel - rel);
            reassembly.writeBytes(buf, lengthAt + rel, n);
            rel += n;
            left -= n;
        }
        return reassembly;
    }

    /** Markers checked. */
    public long seen() {
        return seen;
    }

    /** Markers whose 16 reserved bits were not zero (ignored otherwise). */
    public long withReservedBits() {
        return withReservedBits;
    }

    /** Markers whose FPDUPTR did not point at their FPDU's start. */
    public long errors() {
        return errors;
    }
}
