package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * Frames ULPDUs into FPDUs (RFC 5044 section 4): ULPDU_Length, ULPDU, PAD, CRC, with markers
 * (16 reserved zero bits, 16-bit FPDUPTR) at every 512th stream octet when markers are on
 * (section 4.3). The CRC covers every octet from the FPDU's first octet up to the CRC field,
 * including a leading marker (FPDUPTR 0) and a marker just before the CRC; zeros when CRC is
 * off. One instance per direction; not thread safe; no allocation per FPDU.
 */
public final class FpduEncoder {
    private final boolean crc;
    private final boolean markers;
    private static final byte[] ZERO_PAD = new byte[3];

    private final MpaCrc crc32 = new MpaCrc();
    private long streamPosition;
    /** Zero-copy FPDU in progress: its ULPDU length, else -1. */
    private int openUlpdu = -1;
    private long fpdus;

    // per-FPDU state while markers are on
    private ByteBuf out;
    private long pos;
    private long nextMarker;
    private long lengthPos;

    public FpduEncoder(boolean crc, boolean markers) {
        this(crc, markers, 0);
    }

    /**
     * @param initialStreamPosition the stream position of the next FPDU (0 for the first FPDU
     *     after the set-up frame); a multiple of 4 when markers are on
     */
    public FpduEncoder(boolean crc, boolean markers, long initialStreamPosition) {
        if (initialStreamPosition < 0 || (markers && (initialStreamPosition & 3) != 0)) {
            throw new IllegalArgumentException("bad initial stream position " + initialStreamPosition);
        }
        this.crc = crc;
        this.markers = markers;
        this.streamPosition = initialStreamPosition;
    }

    public boolean crc() {
        return crc;
    }

    public boolean markers() {
        return markers;
    }

    /** The stream position the next FPDU starts at. */
    public long streamPosition() {
        return streamPosition;
    }

    /** FPDUs encoded so far (read by the owner's thread; the owner publishes counters from it). */
    public long fpdus() {
        return fpdus;
    }

    /** Octets the next FPDU takes on the wire for a ULPDU of this length, markers included. */
    public int encodedLength(int ulpduLength) {
        return Markers.rawLength(streamPosition, markers, ulpduLength);
    }

    /**
     * The largest ULPDU the next FPDU can carry: 65535, or less with markers when an FPDUPTR
     * would not fit its 16 bits.
     */
    public int maxUlpduLength() {
        if (!markers || Markers.maxFpduPtr(streamPosition, Markers.MAX_ULPDU_LENGTH) <= Markers.MAX_FPDUPTR) {
            return Markers.MAX_ULPDU_LENGTH;
        }
        int lo = 0;
        int hi = Markers.MAX_ULPDU_LENGTH;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (Markers.maxFpduPtr(streamPosition, mid) <= Markers.MAX_FPDUPTR) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * The largest ULPDU the next FPDU can carry in at most {@code rawBudget} octets on the wire, markers included: with
     * markers, an FPDU that holds fewer markers than the most its size can meet carries more ULPDU, so every FPDU
     * fills a segment of {@code rawBudget} octets exactly (FPDU alignment, RFC 5044 section 8 and appendix A: one
     * FPDU per TCP segment; a MULPDU from the EMSS with room for the most markers leaves an FPDU with fewer 4 octets
     * short and the next FPDU's first octets fill its segment). Capped at {@link #maxUlpduLength()}; -1 when not
     * even an empty ULPDU fits.
     */
    public int maxUlpduWithin(int rawBudget) {
        int u = Markers.maxUlpduWithin(streamPosition, markers, rawBudget);
        if (u >= Markers.MAX_ULPDU_LENGTH - 2 * Markers.INTERVAL) {
            u = Math.min(u, maxUlpduLength());
        }
        return u;
    }

    /** Writes one FPDU carrying the readable bytes of {@code ulpdu} (its indices unchanged). */
    public void encode(ByteBuf ulpdu, ByteBuf out) {
        encode(ulpdu, null, out);
    }

    /**
     * Writes one FPDU whose ULPDU is the readable bytes of {@code header} followed by those of
     * {@code payload} (may be null); source indices unchanged.
     *
     * @throws IllegalArgumentException ULPDU over {@link #maxUlpduLength()}
     */
    public void encode(ByteBuf header, ByteBuf payload, ByteBuf out) {
        encode(header, payload, payload == null ? 0 : payload.readerIndex(), payload == null ? 0 : payload.readableBytes(),
                out);
    }

    /**
     * Writes one FPDU whose ULPDU is the readable bytes of {@code header} followed by {@code payloadLength}
     * bytes of {@code payload} at absolute index {@code payloadIndex} (e.g. straight from registered memory:
     * the payload is copied once, into {@code out}, and the CRC is computed over {@code out}); source indices
     * unchanged, no allocation.
     *
     * @throws IllegalArgumentException ULPDU over {@link #maxUlpduLength()}
     */
    public void encode(ByteBuf header, ByteBuf payload, int payloadIndex, int payloadLength, ByteBuf out) {
        int hl = header.readableBytes();
        int pl = payload == null ? 0 : payloadLength;
        int u = hl + pl;
        if (u > Markers.MAX_ULPDU_LENGTH
                || (markers && Markers.maxFpduPtr(streamPosition, u) > Markers.MAX_FPDUPTR)) {
            throw new IllegalArgumentException("ULPDU of " + u + " octets over the limit of " + maxUlpduLength());
        }
        int raw = encodedLength(u);
        fpdus++;
        out.ensureWritable(raw);
        int start = out.writerIndex();
        int pad = Markers.pad(u);
        if (!markers) {
            out.writeShort(u);
            out.writeBytes(header, header.readerIndex(), hl);
            if (pl > 0) {
                out.writeBytes(payload, payloadIndex, pl);
            }
            out.writeZero(pad);
        } else {
            this.out = out;
            pos = streamPosition;
            nextMarker = pos - pos % Markers.INTERVAL;
            lengthPos = -1;
            markerIfDue(); // leading marker, FPDUPTR 0
            lengthPos = pos;
            nextMarker = Markers.nextMarker(pos);
            out.writeShort(u);
            pos += 2;
            copy(header, header.readerIndex(), hl);
            if (pl > 0) {
                copy(payload, payloadIndex, pl);
            }
            out.writeZero(pad); // never crosses a marker: PAD ends 4-aligned
            pos += pad;
            markerIfDue(); // marker between PAD and CRC
            this.out = null;
        }
        int wire = crc ? crc32.reset().update(out, start, out.writerIndex() - start).wireValue() : 0;
        out.writeInt(wire);
        streamPosition += raw;
    }

    /**
     * Starts an FPDU whose payload the caller sends itself (zero-copy transmit, markers off): writes
     * ULPDU_Length and {@code header} into {@code out} and starts the CRC over them. The caller then adds
     * the {@code payloadLength} payload octets to the CRC with {@link #crcPayload}, sends them, and
     * finishes with {@link #endFpdu}, which writes PAD and CRC (RFC 5044 section 4.1).
     *
     * @throws IllegalArgumentException ULPDU over 65535 octets
     * @throws IllegalStateException markers are on, or an FPDU is already open
     */
    public void beginFpdu(ByteBuf header, int payloadLength, ByteBuf out) {
        if (markers || openUlpdu >= 0) {
            throw new IllegalStateException(markers ? "zero-copy framing needs markers off" : "FPDU already open");
        }
        int hl = header.readableBytes();
        int u = hl + payloadLength;
        if (payloadLength < 0 || u > Markers.MAX_ULPDU_LENGTH) {
            throw new IllegalArgumentException("ULPDU of " + u + " octets over the limit of " + Markers.MAX_ULPDU_LENGTH);
        }
        int start = out.writerIndex();
        out.writeShort(u);
        out.writeBytes(header, header.readerIndex(), hl);
        if (crc) {
            crc32.reset().update(out, start, 2 + hl);
        }
        openUlpdu = u;
        fpdus++;
    }

    /** Adds payload octets of the open FPDU to its CRC (the buffer's position moves to its limit). */
    public void crcPayload(java.nio.ByteBuffer payload) {
        if (crc) {
            crc32.update(payload);
        }
    }

    /** Ends the open FPDU: PAD and CRC into {@code out}. */
    public void endFpdu(ByteBuf out) {
        if (openUlpdu < 0) {
            throw new IllegalStateException("no FPDU open");
        }
        int u = openUlpdu;
        openUlpdu = -1;
        int pad = Markers.pad(u);
        out.writeZero(pad);
        int wire = 0;
        if (crc) {
            wire = crc32.update(ZERO_PAD, 0, pad).wireValue();
        }
        out.writeInt(wire);
        streamPosition += encodedLength(u);
    }

    private void copy(ByteBuf src, int index, int length) {
        while (length > 0) {
            markerIfDue();
            int n = (int) Math.min(length, nextMarker - pos);
            out.writeBytes(src, index, n);
            index += n;
            length -= n;
            pos += n;
        }
    }

    private void markerIfDue() {
        if (pos == nextMarker) {
            out.writeInt(lengthPos < 0 ? 0 : (int) (pos - lengthPos));
            pos += Markers.LENGTH;
            nextMarker += Markers.INTERVAL;
        }
    }
}
