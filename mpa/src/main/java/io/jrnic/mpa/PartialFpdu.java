package io.jrnic.mpa;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * The FPDU of an {@link FpduDecoder} whose end has not arrived yet, in a stream cut anywhere (RFC 5044 section 5):
 * its octets are gathered in a reused staging buffer until it is whole. With payload placement on (markers off), once
 * its head is in and enough payload is still to come, the listener may take the payload
 * ({@link FpduListener#onFpduHead}): the payload octets then go to its {@link PayloadTarget}, copied from the chunks
 * fed or read there by the decoder's caller, the CRC running over them where they lie; only ULPDU_Length, the
 * ULPDU's head, the pad and the CRC are staged. Checking and delivering the whole FPDU is the decoder's. Not thread
 * safe.
 */
final class PartialFpdu {
    private static final int INITIAL_BUFFER = 2048;

    private final boolean markers;
    /** The decoder's CRC check; null with CRC off. */
    private final ReceivedCrc crc;
    private final FpduListener listener;

    private ByteBuf staging;
    /** The FPDU's length on the wire, markers included; -1 while its ULPDU_Length is incomplete. */
    private int stagedRaw = -1;

    /** Payload octets still to come from which the head of an FPDU is offered; 0: never. */
    private int placeMin;
    private final PayloadTarget target = new PayloadTarget();
    /** The head of the FPDU being staged was offered. */
    private boolean offered;
    /** The FPDU being staged has its payload going to {@link #target}. */
    private boolean placing;
    /** Staging octets before the payload of the FPDU being placed (ULPDU_Length and the ULPDU's head). */
    private int headEnd;
    /** Payload octets of the FPDU being placed that are in the target. */
    private int placedOctets;
    /** The last FPDU framed was large enough for its payload to be placed (the next one likely is too). */
    private boolean lastLarge;
    /** The listener declined the last head offered: no head reads on speculation until it takes one. */
    private boolean lastDeclined;

    PartialFpdu(boolean markers, ReceivedCrc crc, FpduListener listener) {
        this.markers = markers;
        this.crc = crc;
        this.listener = listener;
    }

    /** Offers the head of every FPDU with at least {@code minOctets} payload octets still to come (markers off). */
    void placePayloads(int minOctets) {
        placeMin = minOctets;
    }

    /** Octets of the FPDU received so far (its placed payload octets included). */
    int staged() {
        return staging == null ? 0 : staging.writerIndex() + placedOctets;
    }

    /**
     * The staged octets of the whole FPDU; when {@link #placing}: ULPDU_Length at 0, the ULPDU's head up to
     * {@link #headEnd}, then the pad and CRC.
     */
    ByteBuf octets() {
        return staging;
    }

    int rawLength() {
        return stagedRaw;
    }

    /** The FPDU's payload went to the listener's target. */
    boolean placing() {
        return placing;
    }

    int headEnd() {
        return headEnd;
    }

    /**
     * Takes octets of {@code chunk} for the FPDU starting at stream position {@code fpduStart}, whose ULPDU_Length
     * follows {@code lead} octets of leading marker. True when the FPDU is whole: the decoder checks and delivers it,
     * then calls {@link #clear}.
     */
    boolean stage(ByteBuf chunk, long fpduStart, int lead) {
        if (staging == null) {
            staging = Unpooled.wrappedBuffer(new byte[INITIAL_BUFFER]).clear();
        }
        if (stagedRaw < 0) {
            int header = lead + 2;
            staging.writeBytes(chunk, Math.min(header - staged(), chunk.readableBytes()));
            if (staged() == header) {
                stagedRaw = Markers.rawLength(fpduStart, markers, staging.getUnsignedShort(lead));
                if (stagedRaw > staging.capacity()) {
                    staging = grow(staging, stagedRaw);
                }
            }
            return false;
        }
        if (placing) {
            return placeFrom(chunk);
        }
        if (placeMin > 0 && !offered) {
            int probeEnd = Math.min(2 + FpduDecoder.HEAD_PROBE, stagedRaw);
            if (staged() < probeEnd) {
                staging.writeBytes(chunk, Math.min(probeEnd - staged(), chunk.readableBytes()));
                if (staged() < probeEnd) {
                    return false;
                }
            }
            offered = true;
            if (offerHead(chunk.readableBytes(), fpduStart)) {
                return false;
            }
        }
        staging.writeBytes(chunk, Math.min(stagedRaw - staged(), chunk.readableBytes()));
        return staged() == stagedRaw;
    }

    /** The FPDU in hand was checked (and delivered): ready for the next. A placed one was large. */
    void clear() {
        staging.clear();
        stagedRaw = -1;
        offered = false;
        if (placing) {
            lastLarge = true;
            placing = false;
            placedOctets = 0;
            target.clear();
        }
    }

    /** A whole FPDU with ULPDU_Length {@code u} was framed without placement: whether the next one's likely large. */
    void framed(int u) {
        lastLarge = placeMin > 0 && !lastDeclined && u >= FpduDecoder.HEAD_PROBE + placeMin;
    }

    /**
     * The head of the FPDU being staged is in (markers off: no lead, ULPDU from staging octet 2); {@code chunkLeft}
     * octets of the chunk follow it. Offers the head when enough payload is still to come; true when the listener
     * took the payload (the payload octets held so far are then in the target).
     */
    private boolean offerHead(int chunkLeft, long fpduStart) {
        int u = staging.getUnsignedShort(0);
        int held = staging.writerIndex();
        long missingPayload = (long) stagedRaw - held - chunkLeft - Markers.pad(u) - 4;
        if (missingPayload < placeMin) {
            return false;
        }
        boolean taken;
        staging.setIndex(2, held);
        try {
            taken = listener.onFpduHead(staging, u, fpduStart, target);
        } finally {
            staging.setIndex(0, held);
        }
        int h = target.ulpduOffset();
        lastDeclined = !taken;
        if (!taken || h > held - 2 || !target.start(u - h)) { // a target the listener could not have meant
            target.clear();
            return false;
        }
        MpaCrc c = crc != null ? crc.startRunning(staging, 0, 2 + h) : null;
        placing = true;
        headEnd = 2 + h;
        int already = held - headEnd;
        if (already > 0) {
            target.copy(staging, headEnd, already, c);
        }
        staging.writerIndex(headEnd);
        placedOctets = already;
        return true;
    }

    /** Octets of the FPDU being placed from {@code chunk}: payload to the target, then pad and CRC to staging. */
    private boolean placeFrom(ByteBuf chunk) {
        if (target.left() > 0) {
            int n = Math.min(target.left(), chunk.readableBytes());
            target.copy(chunk, chunk.readerIndex(), n, crc != null ? crc.running() : null);
            chunk.skipBytes(n);
            placedOctets += n;
            return false;
        }
        staging.writeBytes(chunk, Math.min(stagedRaw - staged(), chunk.readableBytes()));
        return staged() == stagedRaw;
    }

    /** See {@link FpduDecoder#placementPending()} (the decoder not stopped). */
    int placementPending() {
        return placing && !target.dropped() ? target.left() : 0;
    }

    /** See {@link FpduDecoder#placed(int)}: {@code n} octets, checked against {@link #placementPending()}. */
    void placed(int n) {
        target.took(n, crc != null ? crc.running() : null);
        placedOctets += n;
    }

    void dropPlacement() {
        if (placing) {
            target.drop();
        }
    }

    int placementIndex() {
        return target.next();
    }

    /** See {@link FpduDecoder#headReadLength()} (the decoder not stopped). */
    int headReadLength() {
        if (placeMin == 0) {
            return 0;
        }
        if (placing) {
            return target.left() == 0 ? stagedRaw - staged() + 2 + FpduDecoder.HEAD_PROBE : 0;
        }
        int held = staged();
        return !offered && held < 2 + FpduDecoder.HEAD_PROBE && (held > 0 || lastLarge)
                ? 2 + FpduDecoder.HEAD_PROBE - held : 0;
    }

    /** A larger heap buffer (GC-managed, nothing to release) holding the old one's bytes. */
    static ByteBuf grow(ByteBuf old, int need) {
        int cap = Math.max(need, old == null ? INITIAL_BUFFER : old.capacity() * 2);
        ByteBuf b = Unpooled.wrappedBuffer(new byte[cap]).clear();
        if (old != null) {
            b.writeBytes(old, 0, old.writerIndex());
        }
        return b;
    }
}
