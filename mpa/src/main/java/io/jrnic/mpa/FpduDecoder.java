package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;

/**
 * Finds FPDUs in a TCP byte stream cut anywhere (RFC 5044 sections 4 and 5): checks every
 * marker's FPDUPTR against the true FPDU start and removes the markers ({@link ReceivedMarkers},
 * MARKER_MISMATCH, 0x03), checks the CRC ({@link ReceivedCrc}, CRC_ERROR, 0x02), records each PAD
 * ({@link ReceivedPads}) and hands each ULPDU to the {@link FpduListener}.
 *
 * <p>ULPDU_Length: every value 0..65535 is framed and delivered. MPA defines no minimum; a
 * ULPDU too short for a DDP header is for the DDP decoder to report with its own error codes.
 *
 * <p>An FPDU that lies whole in one chunk is delivered in place, with no copy and no
 * allocation: the listener gets the chunk itself with its reader and writer index narrowed to
 * the ULPDU (restored after the call), or a reused buffer when markers sit inside the ULPDU.
 * FPDUs cut across chunks are gathered first by a {@link PartialFpdu}.
 *
 * <p>Payload placement ({@link #placePayloads}, markers off): once the head of an FPDU cut across chunks is in
 * and enough of its payload is still to come, the listener may take the payload ({@link FpduListener#onFpduHead}):
 * its octets then go to the listener's {@link PayloadTarget} instead of the staging buffer, copied from the chunks
 * fed, or read there by the caller ({@link #placementPending}, {@link #placementIndex}, {@link #placed}); the CRC
 * runs over them where they lie (the {@link PartialFpdu}'s work), and the FPDU is delivered by
 * {@link FpduListener#onPlacedFpdu} once its CRC checked good, or reported as a CRC error (the payload octets
 * already in the target).
 *
 * <p>After an error the decoder stops and ignores (does not consume) further input, unless
 * built with {@code continueAfterError}: then it reports the error, delivers the FPDU anyway
 * (CrcCheck.BAD for a CRC error) and keeps framing by the length field. Not thread safe.
 */
public final class FpduDecoder {
    /** ULPDU octets held before the head is offered: the longest DDP + RDMAP header before a payload (untagged 18 + Immediate Data 8) rounded up. */
    public static final int HEAD_PROBE = 28;

    private final boolean crc;
    private final boolean markers;
    private final boolean continueAfterError;
    private final FpduListener listener;
    private final ReceivedCrc crcCheck;
    private final ReceivedPads pads = new ReceivedPads();
    private final ReceivedMarkers markerCheck;
    /** The FPDU cut across chunks: staged, or its payload placed. */
    private final PartialFpdu partial;

    private long fpduStart;
    private boolean stopped;
    private long fpdus;

    public FpduDecoder(boolean crc, boolean markers, FpduListener listener) {
        this(crc, markers, false, 0, listener);
    }

    /**
     * @param continueAfterError keep decoding after a CRC or marker error (analysis tools)
     * @param initialStreamPosition stream position of the first octet fed (0 after the set-up
     *     frame); a multiple of 4 when markers are on
     */
    public FpduDecoder(boolean crc, boolean markers, boolean continueAfterError, long initialStreamPosition,
            FpduListener listener) {
        if (initialStreamPosition < 0 || (markers && (initialStreamPosition & 3) != 0)) {
            throw new IllegalArgumentException("bad initial stream position " + initialStreamPosition);
        }
        this.crc = crc;
        this.markers = markers;
        this.continueAfterError = continueAfterError;
        this.fpduStart = initialStreamPosition;
        this.listener = listener;
        this.crcCheck = new ReceivedCrc(listener);
        this.markerCheck = new ReceivedMarkers(listener);
        this.partial = new PartialFpdu(markers, crc ? crcCheck : null, listener);
    }

    /**
     * Offers the listener the head of every FPDU cut across chunks with at least {@code minOctets} payload octets
     * still to come ({@link FpduListener#onFpduHead}). Only without markers (the payload is then one contiguous run
     * of the stream) and without {@code continueAfterError}; call before the first feed.
     *
     * @return whether payloads will be offered
     */
    public boolean placePayloads(int minOctets) {
        if (markers || continueAfterError || minOctets <= 0) {
            return false;
        }
        partial.placePayloads(minOctets);
        return true;
    }

    /** Payload octets of the FPDU in flight the caller may read from the stream straight into the target; 0: none. */
    public int placementPending() {
        return stopped ? 0 : partial.placementPending();
    }

    /**
     * The listener withdraws the target of the payload in flight (e.g. its memory was deregistered): the rest of the
     * payload is no longer stored, only CRC'd as it is fed; the FPDU is still delivered ({@link
     * FpduListener#onPlacedFpdu}) or reported as a CRC error, for the listener to refuse as it would a copied one.
     */
    public void dropPlacement() {
        partial.dropPlacement();
    }

    /**
     * How much to read next so that the next FPDU's head is offered as soon as it is in, when its payload is likely
     * to be placed: once the payload of the FPDU being placed is all in its target, this FPDU's pad and CRC and the
     * next FPDU's ULPDU_Length and {@link #HEAD_PROBE} octets (at most {@code 7 + 2 + HEAD_PROBE}); after a large
     * FPDU (one whose payload could have been placed), or with a head begun, the rest of the next head. 0 otherwise:
     * read what is there. A caller that reads more or less loses nothing: the octets are decoded as they come.
     */
    public int headReadLength() {
        return stopped ? 0 : partial.headReadLength();
    }

    /** The target's absolute index where the next {@link #placementPending()} octets go. */
    public int placementIndex() {
        return partial.placementIndex();
    }

    /**
     * The caller read the next {@code n} octets of the stream into the target at {@link #placementIndex()} (at most
     * {@link #placementPending()}): the CRC runs over them there. The FPDU's pad and CRC come in the next feed.
     */
    public void placed(int n) {
        if (n < 0 || n > placementPending()) {
            throw new IllegalStateException(n + " octets placed, " + placementPending() + " pending");
        }
        partial.placed(n);
    }

    /**
     * Consumes the readable bytes of {@code chunk} (all of them, unless an error stops the
     * decoder: then the bytes after the bad FPDU stay unconsumed). Ignored once stopped.
     */
    public void feed(ByteBuf chunk) {
        while (!stopped && chunk.isReadable()) {
            if (partial.staged() == 0) {
                int at = chunk.readerIndex();
                int raw = rawLength(chunk, at, chunk.readableBytes());
                if (raw >= 0 && raw <= chunk.readableBytes()) {
                    try {
                        process(chunk, at, raw);
                    } finally {
                        chunk.readerIndex(at + raw);
                    }
                    continue;
                }
            }
            if (partial.stage(chunk, fpduStart, lead())) {
                if (partial.placing()) {
                    finishPlaced();
                } else {
                    try {
                        process(partial.octets(), 0, partial.rawLength());
                    } finally {
                        partial.clear();
                    }
                }
            }
        }
    }

    /** Octets of an FPDU received so far whose end has not arrived: a stream ending now ends mid-FPDU. */
    public int partialFpduOctets() {
        return partial.staged();
    }

    private int lead() {
        return lead(fpduStart);
    }

    private int lead(long start) {
        return markers && Markers.leadingMarker(start) ? Markers.LENGTH : 0;
    }

    /** Raw FPDU length from its first octets, or -1 while ULPDU_Length is incomplete. */
    private int rawLength(ByteBuf buf, int at, int available) {
        int lead = lead();
        if (available < lead + 2) {
            return -1;
        }
        return Markers.rawLength(fpduStart, markers, buf.getUnsignedShort(at + lead));
    }

    /** The pad and CRC of the FPDU being placed are in staging after its head: checks the CRC, then delivers it. */
    private void finishPlaced() {
        ByteBuf staging = partial.octets();
        int stagedRaw = partial.rawLength();
        int headEnd = partial.headEnd();
        long start = fpduStart;
        int u = staging.getUnsignedShort(0);
        int pad = Markers.pad(u);
        fpduStart += stagedRaw;
        try {
            pads.record(staging, headEnd + pad, start + stagedRaw - 4, u);
            CrcCheck check = crc ? crcCheck.finishRunning(staging, headEnd, pad, start) : CrcCheck.OFF;
            if (check == CrcCheck.BAD) {
                stopped = true;
                return;
            }
            fpdus++;
            staging.setIndex(2, headEnd);
            listener.onPlacedFpdu(staging, u, start, check);
        } finally {
            partial.clear();
        }
    }

    /** One whole FPDU of {@code raw} octets at {@code at} in {@code buf}; fpduStart is its start. */
    private void process(ByteBuf buf, int at, int raw) {
        long start = fpduStart;
        fpduStart += raw;
        int lead = lead(start);
        long lengthPos = start + lead;
        int lengthAt = at + lead;
        int u = buf.getUnsignedShort(lengthAt);
        partial.framed(u);
        int content = Markers.contentLength(u);
        int crcAt = at + raw - 4;
        int interior = (raw - lead - content) / Markers.LENGTH;
        boolean trailing = false;
        boolean ok = true;
        if (markers) {
            if (lead > 0) {
                ok = markerCheck.check(buf, at, start, 0);
            }
            long m = Markers.nextMarker(lengthPos);
            for (int i = 0; i < interior; i++, m += Markers.INTERVAL) {
                ok &= markerCheck.check(buf, at + (int) (m - start), m, m - lengthPos);
            }
            trailing = interior > 0 && m - Markers.INTERVAL + Markers.LENGTH == start + raw - 4;
            if (!ok && !continueAfterError) {
                stopped = true;
                return;
            }
        }
        pads.record(buf, crcAt - (trailing ? Markers.LENGTH : 0), start + (crcAt - at) - (trailing ? Markers.LENGTH : 0), u);
        CrcCheck check = crc ? crcCheck.check(buf, at, crcAt, lead > 0, trailing, lengthPos) : CrcCheck.OFF;
        if (check == CrcCheck.BAD && !continueAfterError) {
            stopped = true;
            return;
        }
        fpdus++;
        int inUlpdu = interior - (trailing ? 1 : 0);
        if (inUlpdu == 0) {
            int r = buf.readerIndex();
            int w = buf.writerIndex();
            buf.setIndex(lengthAt + 2, lengthAt + 2 + u);
            try {
                listener.onFpdu(buf, lengthPos, check);
            } finally {
                buf.setIndex(r, w);
            }
        } else {
            listener.onFpdu(markerCheck.remove(buf, lengthAt, lengthPos, u), lengthPos, check);
        }
    }

    /**
     * The TCP stream ended. An FPDU cut short is reported as TCP_CONNECTION_LOST (0x01) at its
     * start and the decoder stops; a stream ending between FPDUs is clean.
     *
     * @return true when the stream ended cleanly
     */
    public boolean endOfStream() {
        if (stopped) {
            return false;
        }
        stopped = true;
        if (partial.staged() == 0) {
            return true;
        }
        listener.onError(LlpError.TCP_CONNECTION_LOST, fpduStart,
                "stream ended " + partial.staged() + " octets into an FPDU");
        return false;
    }

    /** True after an error stopped the decoder (never with continueAfterError), or after endOfStream. */
    public boolean isStopped() {
        return stopped;
    }

    /** Stream position of the next octet to be fed. */
    public long streamPosition() {
        return fpduStart + partial.staged();
    }

    /** Octets of an incomplete FPDU held back, waiting for the rest. */
    public int bufferedBytes() {
        return partial.staged();
    }

    /** The PAD of the FPDUs framed. */
    public ReceivedPads pads() {
        return pads;
    }

    /** The CRC checks of the FPDUs framed (nothing checked without CRC). */
    public ReceivedCrc crcChecks() {
        return crcCheck;
    }

    /** The markers of the FPDUs framed (none without markers). */
    public ReceivedMarkers markerChecks() {
        return markerCheck;
    }

    /** FPDUs framed and delivered. */
    public long fpdus() {
        return fpdus;
    }
}
