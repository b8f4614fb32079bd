package io.jrnic.soft.engine;

import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.Markers;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * How one DDP segment the {@link Transmitter} builds becomes an FPDU in {@link TxWire}'s buffers: its headers
 * (tagged or untagged DDP header with the RDMAP control word, RFC 5041 section 4, and the RDMAP Read Request or
 * Atomic Request header, RFC 5040 section 4.4, RFC 7306 section 8.1.1) staged in one reused ULPDU buffer through
 * reused flyweights, its payload copied from the registered memory, gathered across SGEs or sent zero-copy, and
 * ULPDU_Length, PAD, CRC and markers added by the {@link FpduEncoder} (RFC 5044 section 4). Also publishes the
 * FPDUs and octets sent to the QP's counters. The Transmitter chooses the message and cuts it at MULPDU; this
 * class frames what it cut. All under the QP's lock, like the Transmitter that owns it (one per bind); the
 * staging buffer (made at the first FPDU) and the flyweights are reused for every segment.
 *
 * <p>Zero-copy transmit: a payload segment of at least {@link #ZERO_COPY_MIN} octets in direct memory,
 * markers off, is not copied: the channel gets a reused view ({@link PayloadSlice}) of the registered memory between two
 * small buffers holding ULPDU_Length plus headers and PAD plus CRC (computed over the memory in place).
 */
final class FpduFraming {
    /**
     * Smallest payload segment sent zero-copy. Below it the copy into the batch is cheaper than the two
     * extra outbound-buffer entries (and iovecs) a zero-copy segment costs; heap
     * memory is always copied (the socket write would copy it into a direct buffer anyway).
     */
    static final int ZERO_COPY_MIN = 4096;

    private final QpEngine qp;
    private final TxWire wire;
    private final FpduEncoder encoder;
    private final int mulpdu;
    /**
     * With markers: the most octets an FPDU takes on the wire (what the MULPDU's FPDU takes where it meets the most
     * markers, the EMSS when the MULPDU is from the MSS); each FPDU is sized to fill it ({@link #maxUlpdu}).
     */
    private final int fpduBudget;
    /** The stream position of the current message's first FPDU (segments are counted from it). */
    private long segmentBase;
    /** Below this ULPDU an aligned cut is not worth an FPDU: the FPDU is sized by the budget alone. */
    private static final int MIN_ALIGNED_ULPDU = 32;
    /** Header (and copied payload) staging of one ULPDU; allocated at the first FPDU, so an idle QP holds none. */
    private ByteBuf ulpdu;
    private final TaggedHeader tagged = new TaggedHeader();
    private final UntaggedHeader untagged = new UntaggedHeader();
    private final ReadRequestHeader readRequest = new ReadRequestHeader();
    private final AtomicRequestHeader atomicRequest = new AtomicRequestHeader();
    private long publishedFpdus;
    private long publishedBytes;

    FpduFraming(QpEngine qp, TxWire wire, StreamParams p) {
        this.qp = qp;
        this.wire = wire;
        this.encoder = new FpduEncoder(p.crc(), p.markersTx());
        this.mulpdu = p.mulpdu();
        this.fpduBudget = p.markersTx() ? Markers.maxRawLength(true, mulpdu) : 0;
    }

    /**
     * The largest ULPDU the next FPDU carries: the MULPDU without markers. With markers, FPDUs are cut to keep
     * TCP's segments of {@link #fpduBudget} octets, counted from the message's first FPDU, one FPDU each (RFC 5044,
     * FPDU alignment): an FPDU ends on the next segment boundary, markers included (so an FPDU that meets fewer
     * markers carries more ULPDU than the MULPDU). No FPDU can end on a boundary a marker precedes (those four
     * octets are the next FPDU's leading marker): there the FPDU ends four octets short, and the next one, whose
     * leading marker closes that segment, fills the following segment from its ULPDU_Length on.
     */
    int maxUlpdu() {
        if (fpduBudget == 0) {
            return mulpdu;
        }
        long s = encoder.streamPosition();
        long t = s + fpduBudget - Math.floorMod(s - segmentBase, fpduBudget); // the next boundary after s
        if (t - s == Markers.LENGTH && Markers.leadingMarker(s)) {
            t += fpduBudget; // this FPDU's leading marker ends the segment before; its ULPDU_Length opens the next
        }
        int room = (int) (t - s);
        if ((t - Markers.LENGTH) % Markers.INTERVAL == 0) {
            room -= Markers.LENGTH;
        }
        int u = encoder.maxUlpduWithin(room);
        return u >= MIN_ALIGNED_ULPDU ? u : Math.max(mulpdu, encoder.maxUlpduWithin(fpduBudget));
    }

    /** A message of several FPDUs starts at the next FPDU: TCP's segments are counted from there. */
    void messageStarts() {
        segmentBase = encoder.streamPosition();
    }

    /** The ULPDU being staged: the headers so far, for the caller to append the rest of a header-only segment. */
    ByteBuf ulpdu() {
        ByteBuf u = ulpdu;
        if (u == null) {
            u = ulpdu = Unpooled.wrappedBuffer(new byte[Math.max(mulpdu, 256)]);
        }
        return u;
    }

    /** Starts the ULPDU with a tagged DDP header (RFC 5041 section 4.2) carrying an RDMAP control word. */
    void taggedHeader(RdmapOpcode op, boolean last, int stag, long to) {
        ulpdu().clear().writeZero(TaggedHeader.HEADER_LENGTH);
        tagged.wrap(ulpdu(), 0).control(RdmapControl.controlWord(op, last)).stag(stag).taggedOffset(to);
    }

    /** Starts the ULPDU with an untagged DDP header (RFC 5041 section 4.3); MSN and MO are sent mod 2^32. */
    void untaggedHeader(RdmapOpcode op, boolean last, int rsvdUlp, int qn, long msn, long mo) {
        ulpdu().clear().writeZero(UntaggedHeader.HEADER_LENGTH);
        untagged.wrap(ulpdu(), 0).control(RdmapControl.controlWord(op, last)).rsvdUlp(rsvdUlp).queueNumber(qn)
                .msn(msn).messageOffset(mo);
    }

    /** Appends a zeroed RDMA Read Request header (RFC 5040 section 4.4) to the ULPDU, for the caller to fill. */
    ReadRequestHeader readRequestHeader() {
        int at = ulpdu().writerIndex();
        ulpdu().writeZero(ReadRequestHeader.LENGTH);
        return readRequest.wrap(ulpdu(), at);
    }

    /** Appends a zeroed Atomic Request header (RFC 7306 section 8.1.1) to the ULPDU, for the caller to fill. */
    AtomicRequestHeader atomicRequestHeader() {
        int at = ulpdu().writerIndex();
        ulpdu().writeZero(AtomicRequestHeader.LENGTH);
        return atomicRequest.wrap(ulpdu(), at);
    }

    /** One FPDU of the ULPDU as staged (headers and whatever was appended), copied into the batch. */
    void encode() {
        encoder.encode(ulpdu(), wire.out());
    }

    /**
     * Encodes the header in {@code ulpdu} plus {@code len} message bytes at {@code from}: straight from the
     * registered memory when they lie in one SGE (one copy, into the batch), else gathered behind the header.
     * True when the payload went zero-copy (see {@link #encodePayload}).
     */
    boolean encodeFrom(Sgl sgl, long from, int len) {
        int index = len == 0 ? -1 : sgl.contiguousIndex(from, len);
        if (index >= 0) {
            return encodePayload(sgl.foundMemory(), index, len);
        }
        sgl.gather(from, len, ulpdu());
        encode();
        return false;
    }

    /**
     * One FPDU: the header in {@code ulpdu} plus {@code len} octets of {@code mem} at {@code index}, zero-copy
     * when the segment is large, in direct memory and markers are off (then true), else copied into the batch.
     */
    boolean encodePayload(ByteBuf mem, int index, int len) {
        if (len >= ZERO_COPY_MIN && !encoder.markers() && mem.isDirect() && mem.nioBufferCount() == 1) {
            if (wire.zeroCopyAllowed()) {
                encoder.beginFpdu(ulpdu(), len, wire.outGlue());
                encoder.crcPayload(wire.view(mem, index, len));
                wire.writeSlice(mem, index, len);
                encoder.endFpdu(wire.outGlue());
                return true;
            }
            if (mem.hasMemoryAddress() && wire.gatherAllowed()) {
                // in place: written from the memory by the batch's writev; done with the batch, as a copy
                encoder.beginFpdu(ulpdu(), len, wire.out());
                encoder.crcPayload(wire.view(mem, index, len));
                wire.gather(mem, index, len);
                encoder.endFpdu(wire.out());
                return false;
            }
        }
        encoder.encode(ulpdu(), mem, index, len, wire.out());
        return false;
    }

    /** Publishes the FPDUs and stream octets encoded since the last flush (once per flush, not per FPDU). */
    void publishCounters() {
        long f = encoder.fpdus();
        long b = encoder.streamPosition();
        if (f != publishedFpdus) {
            qp.counters.add(Counter.TX_FPDUS, f - publishedFpdus);
            qp.counters.add(Counter.TX_BYTES, b - publishedBytes);
            publishedFpdus = f;
            publishedBytes = b;
        }
    }
}
