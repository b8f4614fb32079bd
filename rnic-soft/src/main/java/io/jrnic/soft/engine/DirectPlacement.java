package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.ddp.UntaggedPlacement;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.PayloadTarget;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.RdmapValidator;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.RemoteAccess;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * Direct data placement from the socket (spec-notes/placement.md): the payload of an FPDU cut across reads goes
 * from the socket straight into the registered memory it is addressed to, before its CRC is checked. The
 * {@link Receiver}'s side of {@link io.jrnic.mpa.FpduDecoder#placePayloads}: at the FPDU's head, a check without
 * side effects finds where the payload would go if the FPDU were accepted now (the {@link RdmapValidator}, then
 * the tagged sink, RFC 5041 section 5.3 / RFC 5040 section 4.5, or the posted receive by MSN and MO) and takes it
 * only when every check passes and the payload's span is one run of direct memory; anything else (a bad header, no
 * receive yet, an SGE boundary, heap memory) declines, and the FPDU takes the copy path with its checks and
 * Terminates unchanged. The FPDU is acted on only after its CRC checked good, by the same code as a copied one;
 * the payload is then where that code would put it ({@link #placedAt}, {@link #scatter}).
 *
 * <p>The reads: the event loop reads into a slice over the span ({@link #loopRead}, {@link LoopReadGate}), a polling
 * thread reads at its address ({@link ReceiveInPlace}). Used by the QP's owner only.
 */
final class DirectPlacement {
    /**
     * Payload octets still to come from which the payload is read into its target. Placing saves one copy of them
     * (staging to target; the kernel's copy happens either way) and costs a read system call: the payload's read ends
     * where the FPDU's pad and CRC begin, and the read after it takes only those and the next head. At 8 KiB every
     * FPDU of a jumbo frame (8,928 payload octets at MTU 9000) qualified, so a stream went at two reads per 8.9 KB,
     * 12 % more CPU per byte than copying (spec-notes/placement.md); at 16 KiB those are copied, and loopback's
     * 32 KiB FPDUs are placed as before.
     */
    static final int MIN_PAYLOAD = 16 * 1024;

    private final QpEngine qp;
    private final FpduDecoder decoder;
    private final RdmapValidator validator;
    private final RemoteAccess access;
    private final UntaggedPlacement untagged = new UntaggedPlacement();

    /** The memory a candidate target lies in, and its tagged region (null: a receive), set by the checks. */
    private ByteBuf found;
    private SoftRegion foundRegion;
    /** The tagged region the payload in flight goes to (null: a receive, or none). */
    private SoftRegion region;
    /** The memory and index the payload in flight starts at; null between such FPDUs. */
    private ByteBuf memory;
    private int start;
    private int length;
    /** An NIO view of {@link #viewOf}, kept while FPDUs go to the same memory (no allocation per FPDU). */
    private ByteBuf viewOf;
    private ByteBuffer view;
    /**
     * A slice over the payload in flight, made at the loop's first read into it and lent (retained) to each of its
     * reads, its writer index at the next octet: Netty reads from there to the payload's end. One per FPDU.
     */
    private ByteBuf span;
    /** The span is lent to the event loop's read now. */
    private boolean lent;
    /** The FPDU being acted on had its payload placed (from its CRC check until it was acted on). */
    private boolean delivering;

    DirectPlacement(QpEngine qp, FpduDecoder decoder, RdmapValidator validator, RemoteAccess access) {
        this.qp = qp;
        this.decoder = decoder;
        this.validator = validator;
        this.access = access;
    }

    /**
     * The FPDU's head ({@code head}'s readable bytes, at least the ULPDU's headers): true with {@code out} filled
     * when its payload is to be placed now. Changes no state but this class's.
     */
    boolean target(ByteBuf head, int ulpduLength, PayloadTarget out) {
        int at = head.readerIndex();
        if (qp.stream.rxStopped() || validator.validate(head, at, ulpduLength) != null) {
            return false;
        }
        RdmapOpcode op = validator.opcode();
        int h = op.tagged() ? TaggedHeader.HEADER_LENGTH : UntaggedHeader.HEADER_LENGTH;
        int payload = ulpduLength - h;
        if (head.readableBytes() < h || payload <= 0) {
            return false;
        }
        int index = switch (op) {
            case RDMA_WRITE -> taggedSink(head, at, payload, AccessFlags.REMOTE_WRITE);
            case RDMA_READ_RESPONSE -> readSink(head, at, payload);
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE -> receive(head, at, payload);
            default -> -1;
        };
        ByteBuf m = found;
        SoftRegion r = foundRegion;
        found = null;
        foundRegion = null;
        if (index < 0 || !m.hasMemoryAddress() || m.nioBufferCount() != 1 || m.refCnt() == 0) {
            return false;
        }
        if (m != viewOf) {
            view = m.nioBuffer(0, m.capacity());
            viewOf = m;
        }
        memory = m;
        region = r;
        start = index;
        length = ulpduLength - h;
        span = null;
        out.set(h, view, index);
        return true;
    }

    /** RDMA Write (RFC 5040 section 4.3) or a Read Response's sink: the region's index, or -1 (copy path). */
    private int taggedSink(ByteBuf head, int at, int payload, int required) {
        if (access.checkTaggedSink(head.getUnsignedShort(at), TaggedHeader.stag(head, at),
                TaggedHeader.taggedOffset(head, at), payload, required) != null || access.region() == null) {
            return -1;
        }
        SoftRegion r = access.region();
        found = r.memory();
        foundRegion = r;
        return r.memoryOffset() + (int) access.regionOffset();
    }

    /** Read Response (RFC 5040 section 4.5): the next octets of the oldest outstanding Read's sink, as the Receiver checks. */
    private int readSink(ByteBuf head, int at, int payload) {
        SqEntry req = qp.stream.rtrReadPending() ? null : qp.sends.oldestRequest();
        if (req == null || req.opcode != SqOpcode.RDMA_READ || req.sgl.count() == 0) {
            return -1;
        }
        SoftRegion sink = req.sgl.region(0);
        long received = req.byteLength;
        if (TaggedHeader.stag(head, at) != sink.stag()
                || TaggedHeader.taggedOffset(head, at) != sink.baseTaggedOffset() + req.sgl.offset(0) + received
                || received + payload > req.sgl.total()
                || (DdpControl.isLast(head.getUnsignedShort(at)) && received + payload != req.sgl.total())) {
            return -1;
        }
        return taggedSink(head, at, payload, AccessFlags.LOCAL_WRITE);
    }

    /** Send family (RFC 5040 section 4.3): the posted receive message MSN goes to, at MO, if held and one SGE. */
    private int receive(ByteBuf head, int at, int payload) {
        if (qp.rq.untagged().check(head.getUnsignedShort(at), UntaggedHeader.queueNumber(head, at),
                UntaggedHeader.msn(head, at), UntaggedHeader.messageOffset(head, at), payload, untagged) != null) {
            return -1;
        }
        Sgl sgl = qp.rq.entry(untagged.bufferId()).sgl;
        int index = sgl.contiguousIndex(untagged.bufferOffset(), payload);
        if (index >= 0) {
            found = sgl.foundMemory();
        }
        return index;
    }

    // ---------------------------------------------------------------- the reads

    /**
     * At bind, before the first byte, on a stream whose reads can land in registered memory (the loop's through its
     * {@link LoopReadGate}, a poller's in place): payloads of FPDUs cut across reads go straight to their targets
     * (markers off; {@link Diagnostics#DIRECT_PLACEMENT}).
     */
    void enable() {
        if (Diagnostics.DIRECT_PLACEMENT) {
            decoder.placePayloads(MIN_PAYLOAD);
        }
    }

    /** Octets of an FPDU's payload the next read of the stream may put straight into their target; 0: none. */
    int pending() {
        checkTarget();
        return qp.stream.rxStopped() ? 0 : decoder.placementPending();
    }

    /**
     * Before each read and feed: a tagged region invalidated or deregistered while its payload was being placed is
     * not written any more (the rest of the payload is only CRC'd); once the CRC checked good the Receiver's checks
     * refuse the segment (invalid STag) as they would a copied one. A receive's memory is written as the copy path
     * would (its completion must not report octets that were not stored).
     */
    void checkTarget() {
        if (region != null && !region.valid()) {
            decoder.dropPlacement();
            region = null;
        }
    }

    /**
     * After a payload placed directly, the length of the next read (its FPDU's pad and CRC and the next FPDU's head,
     * so that the next payload is placed too, {@link FpduDecoder#headReadLength}); 0: read what is there.
     */
    int headReadLength() {
        return qp.stream.rxStopped() ? 0 : decoder.headReadLength();
    }

    /** The event loop's next read, when it goes straight into a target: a slice over it, else null. */
    ByteBuf loopRead() {
        int n = pending();
        if (n == 0 || memory == null || memory.refCnt() == 0) {
            return null;
        }
        if (span == null) {
            span = memory.slice(start, length);
        }
        int next = decoder.placementIndex() - start; // Netty reads [writer index, capacity): the payload's rest
        lent = true;
        return span.retain().setIndex(next, next); // the Receiver releases it
    }

    /** A polling thread's next read goes to this address ({@link #pending()} octets at most). */
    long address() {
        return memory.memoryAddress() + decoder.placementIndex();
    }

    /** A polling thread read {@code n} octets of the stream to {@link #address()}. */
    void placedInPlace(int n) {
        qp.counters.add(Counter.RX_BYTES, n);
        placed(n);
    }

    /** {@code n} octets of the stream were read straight into the target. */
    void placed(int n) {
        qp.counters.add(Counter.RX_DIRECT_BYTES, n);
        decoder.placed(n);
    }

    /** Whether {@code chunk} is the loop's read into the lent slice (its octets are in place); forgets the slice. */
    boolean returned(ByteBuf chunk) {
        boolean r = lent && chunk == span;
        lent = false;
        return r;
    }

    // ---------------------------------------------------------------- acting on the FPDU once its CRC checked good

    /** The Receiver acts on a placed FPDU now ({@code true}), or is done with it. */
    void delivering(boolean on) {
        delivering = on;
        if (!on) {
            memory = null;
            region = null;
            span = null;
        }
    }

    /**
     * Tagged placement of a payload the Receiver accepted: true when it is at {@code index} of {@code m} (placed
     * there, or copied there now from where it was placed: the checks at the head found another target, which a
     * consumer's change of the region between the two could make); false for a copied FPDU (the caller copies).
     */
    boolean placedAt(ByteBuf m, int index, int length) {
        if (!delivering) {
            return false;
        }
        if (m != memory || index != start) {
            m.setBytes(index, memory, start, length);
        }
        return true;
    }

    /**
     * Tagged placement of an accepted payload of {@code length} octets into region {@code r} at {@code regionOffset}:
     * already there (placed before its CRC, see {@link #placedAt}), else copied from {@code src} now.
     */
    void place(SoftRegion r, long regionOffset, ByteBuf src, int srcIndex, int length) {
        if (r != null && length > 0) {
            int index = r.memoryOffset() + (int) regionOffset;
            if (!placedAt(r.memory(), index, length)) {
                r.memory().setBytes(index, src, srcIndex, length);
            }
        }
    }

    /** Untagged placement: as {@link Sgl#scatter} for a copied FPDU; a placed payload is there, or copied there. */
    void scatter(Sgl sgl, long to, ByteBuf src, int srcIndex, int length) {
        if (!delivering) {
            sgl.scatter(to, src, srcIndex, length);
        } else if (sgl.contiguousIndex(to, length) != start || sgl.foundMemory() != memory) {
            sgl.scatter(to, memory, start, length);
        }
    }
}
