package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpSegmenter;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.jrnic.rdmap.Terminate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;

/**
 * The sending half of a stream: work requests and inbound Read/Atomic Requests become DDP segments
 * (RFC 5041 section 5.2, {@link DdpSegmenter}), RDMAP messages (RFC 5040 section 4) and FPDUs
 * ({@link FpduEncoder}, RFC 5044 section 4), gathered by {@link TxWire} into batch buffers of about 64 KiB
 * that are written as the channel stays writable (backpressure: a QP holds at most one batch plus the
 * channel's high water mark). One message at a time: segments of two messages never interleave (RFC 5041
 * section 5.2); answers to Read Requests go first at message boundaries.
 *
 * <p>Zero-copy transmit: a payload segment of at least {@link #ZERO_COPY_MIN} octets in direct memory,
 * markers off, is not copied: the channel gets a retained slice of the registered memory between two
 * small buffers holding ULPDU_Length plus headers and PAD plus CRC (computed over the memory in place).
 * A work request whose payload went this way completes only when its last slice has left the channel's
 * outbound buffer (its {@link WireMark}), so the consumer may reuse the memory after the completion.
 *
 * <p>Transmit in place ({@link #pumpInPlace()}): when the QP is idle (nothing being sent, nothing in the channel's
 * outbound buffer) the posting thread, holding the QP's lock, encodes at most {@link #IN_PLACE_BATCHES} batches
 * (copied, never zero-copy) and writes them straight into the socket of an epoll channel whose pipeline holds
 * only the Receiver: no wake-up of the event loop, and the copied messages complete on the poster. What the
 * socket does not take is the hand-over, written by the event loop before anything else.
 * {@code -Djrnic.transmitInPlace=false} turns it off.
 * Everything else runs on the event loop; all of it under the QP's lock ({@link QpEngine}).
 */
final class Transmitter {
    /**
     * Smallest payload segment sent zero-copy. Below it the copy into the batch is cheaper than the two
     * extra outbound-buffer entries (and iovecs) and the retained slice a zero-copy segment costs; heap
     * memory is always copied (the socket write would copy it into a direct buffer anyway).
     */
    static final int ZERO_COPY_MIN = 4096;
    /**
     * Batches (64 KiB) a posting thread transmits in place at most: a message of up to 256 KiB goes out without
     * waking the event loop (a 64 KiB WRITE's p50 was 7x TCP's when its second FPDU waited for the loop), while the
     * poster's time in the copy and CRC stays bounded.
     */
    static final int IN_PLACE_BATCHES = 4;
    /** STag of the zero-length RTR Write, as Linux siw sends it (reference section 2.2). */
    static final int RTR_STAG = 1;

    private final QpEngine qp;
    private final Channel ch;
    private final FpduEncoder encoder;
    private final int mulpdu;
    /** Header (and copied payload) staging of one ULPDU; allocated at the first FPDU, so an idle QP holds none. */
    private ByteBuf ulpdu;
    private final DdpSegmenter seg = new DdpSegmenter();
    private final TaggedHeader tagged = new TaggedHeader();
    private final UntaggedHeader untagged = new UntaggedHeader();
    private final ReadRequestHeader readRequest = new ReadRequestHeader();
    private final AtomicRequestHeader atomicRequest = new AtomicRequestHeader();
    /** The current WR sent some payload zero-copy: it completes by its {@link WireMark}. */
    private boolean curZeroCopy;
    private SqEntry cur;
    private final TxWire wire;
    private ReadJob curRead;
    private boolean readStarted;
    private long sendMsn;
    private long requestMsn;
    private long atomicResponseMsn;
    private long publishedFpdus;
    private long publishedBytes;

    Transmitter(QpEngine qp, Channel ch, StreamParams p) {
        this.qp = qp;
        this.ch = ch;
        this.encoder = new FpduEncoder(p.crc(), p.markersTx());
        this.mulpdu = p.mulpdu();
        this.wire = new TxWire(qp, ch, mulpdu, p.transmitStallTimeoutMillis());
    }

    /** Lets posting threads transmit in place when the channel allows it; called once the Receiver is installed. */
    void enableInPlace(io.netty.channel.ChannelHandler receiver) {
        wire.enableInPlace(receiver);
    }

    boolean inPlaceCapable() {
        return wire.inPlaceCapable();
    }

    /**
     * The posting thread's pump (QP lock held, QP in RTS): when nothing is being sent and the channel's outbound
     * buffer is empty, encodes up to {@link #IN_PLACE_BATCHES} batches of messages into copy buffers and writes
     * each to the socket. True when nothing is left for the event loop (no message half sent, none waiting, no
     * hand-over).
     */
    boolean pumpInPlace() {
        if (!qp.txOpen() || cur != null || curRead != null || !wire.idle()) {
            return false;
        }
        wire.inPlace(true);
        try {
            emit(true);
            flushNow();
            qp.retireSends(); // a failure it raises (Terminate) is written in place too
        } finally {
            wire.inPlace(false);
        }
        return cur == null && curRead == null && !wire.handoverPending() && qp.sqPending.isEmpty()
                && qp.inboundReads.isEmpty();
    }

    /** Emits as much as the channel takes, then flushes and retires finished WRs. */
    void pump() {
        emit(false);
        wire.checkStall(qp.txOpen());
        flushNow();
        qp.retireSends();
    }

    /**
     * Emits segments while the QP may send: on the loop as long as the channel is writable, writing each full
     * batch; in place, writing each full batch into the socket, until {@link #IN_PLACE_BATCHES} batches went or the
     * socket did not take one whole (the rest is the loop's).
     */
    private void emit(boolean inPlace) {
        int batches = 0;
        while (qp.txOpen() && (inPlace || ch.isWritable())) {
            if (cur == null && curRead == null && !startNext()) {
                return;
            }
            if (curRead != null) {
                emitResponse();
            } else if (cur != null) {
                emitRequest();
            }
            if (wire.batchFull()) {
                if (inPlace) {
                    if (++batches == IN_PLACE_BATCHES || !wire.writeInPlace()) {
                        return;
                    }
                    continue;
                }
                wire.writeBatch();
            }
        }
    }

    /** Everything encoded so far goes out (counters published once per flush, not per FPDU). */
    void flushNow() {
        publishCounters();
        wire.flush();
    }

    /** Publishes the FPDUs and stream octets encoded since the last flush (once per flush, not per FPDU). */
    private void publishCounters() {
        long f = encoder.fpdus();
        long b = encoder.streamPosition();
        if (f != publishedFpdus) {
            qp.counters.add(Counter.TX_FPDUS, f - publishedFpdus);
            qp.counters.add(Counter.TX_BYTES, b - publishedBytes);
            publishedFpdus = f;
            publishedBytes = b;
        }
    }

    /** Called when the channel turned writable: ends a backpressure stall. */
    void writable() {
        wire.writable();
    }

    private ByteBuf ulpdu() {
        ByteBuf u = ulpdu;
        if (u == null) {
            u = ulpdu = Unpooled.wrappedBuffer(new byte[Math.max(mulpdu, 256)]);
        }
        return u;
    }

    void releaseBuffers() {
        wire.release();
    }

    /** Zero-copy WRs whose bytes are still in the outbound buffer. */
    int onWire() {
        return wire.onWire();
    }

    /** Picks the next message: a pending Read/Atomic answer, else the next send WR (ORD and fence permitting). */
    private boolean startNext() {
        ReadJob j = qp.inboundReads.peek();
        if (j != null) {
            curRead = j;
            readStarted = false;
            return true;
        }
        SqEntry e = qp.sqPending.peek();
        if (e == null || (e.fence && !qp.outstandingReads.isEmpty())
                || (e.opcode.isReadLike() && qp.outstandingReads.size() >= qp.params.ord())) {
            return false;
        }
        qp.sqPending.poll();
        e.started = true;
        if (!e.sgl.valid()) {
            fail(e, Status.LOCAL_PROTECTION_ERROR);
            return true;
        }
        try {
            switch (e.opcode) {
                case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE -> {
                    e.msn = ++sendMsn;
                    seg.resetUntagged(e.sgl.total(), mulpdu, UntaggedHeader.HEADER_LENGTH);
                }
                case RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE ->
                        seg.resetTagged(e.sgl.total(), mulpdu, TaggedHeader.HEADER_LENGTH, e.remoteTo);
                case IMMEDIATE_DATA -> e.msn = ++sendMsn;
                case RDMA_READ, ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> {
                    e.msn = ++requestMsn;
                    qp.outstandingReads.add(e);
                    qp.counters.max(Counter.ORD_HIGH_WATER, qp.outstandingReads.size());
                }
                case REG_MR, LOCAL_INVALIDATE, BIND_MW -> {
                    runLocal(e);
                    return true;
                }
                default -> throw new IllegalStateException(e.opcode.toString());
            }
        } catch (IllegalArgumentException ex) {
            fail(e, Status.LOCAL_QP_OPERATION_ERROR);
            return true;
        }
        cur = e;
        return true;
    }

    /** Local operations run in SQ order (RDMAC verbs: fast registration, invalidate, bind). */
    private void runLocal(SqEntry e) {
        try {
            if (e.localAction != null) {
                e.localAction.run();
            }
            e.done = true;
        } catch (LocalOperationException ex) {
            fail(e, ex.status());
        }
    }

    /** A WR that cannot run: it completes with {@code s}; the QP fails (Terminate local catastrophic). */
    private void fail(SqEntry e, Status s) {
        e.status = s;
        e.done = true;
        qp.retireSends();
        qp.teardown.terminate(Terminate.of(RdmapError.LOCAL_CATASTROPHIC), null, null);
    }

    private void finish(SqEntry e, long byteLength) {
        e.byteLength = (int) Math.min(Integer.MAX_VALUE, byteLength);
        cur = null;
        if (curZeroCopy) {
            // done when the last slice has left the outbound buffer (the mark written at the next flush)
            curZeroCopy = false;
            wire.finishedZeroCopy(e);
        } else {
            e.done = true;
        }
    }

    private void emitRequest() {
        SqEntry e = cur;
        switch (e.opcode) {
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE -> {
                seg.next();
                RdmapOpcode op = sendOpcode(e);
                untaggedHeader(op, seg.last(), op.carriesInvalidateStag() ? e.invalidateStag : 0,
                        RdmapOpcode.QN_SEND, e.msn, seg.offset());
                encodeFrom(e.sgl, seg.messageOffset(), seg.length());
                if (seg.last()) {
                    finish(e, e.sgl.total());
                }
            }
            case RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE -> {
                if (e.immediatePhase) {
                    immediateData(e);
                    finish(e, e.sgl.total());
                    return;
                }
                seg.next();
                taggedHeader(RdmapOpcode.RDMA_WRITE, seg.last(), e.remoteStag, seg.offset());
                encodeFrom(e.sgl, seg.messageOffset(), seg.length());
                if (seg.last()) {
                    if (e.opcode == SqOpcode.RDMA_WRITE_WITH_IMMEDIATE) {
                        e.immediatePhase = true;
                        e.msn = ++sendMsn;
                    } else {
                        finish(e, e.sgl.total());
                    }
                }
            }
            case IMMEDIATE_DATA -> {
                immediateData(e);
                finish(e, 0);
            }
            case RDMA_READ -> {
                untaggedHeader(RdmapOpcode.RDMA_READ_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST, e.msn, 0);
                boolean hasSink = e.sgl.count() > 0;
                int at = ulpdu().writerIndex();
                ulpdu().writeZero(ReadRequestHeader.LENGTH);
                readRequest.wrap(ulpdu(), at)
                        .sinkStag(hasSink ? e.sgl.region(0).stag() : 0)
                        .sinkTaggedOffset(hasSink ? e.sgl.region(0).baseTaggedOffset() + e.sgl.offset(0) : 0)
                        .readSize(e.sgl.total()).srcStag(e.remoteStag).srcTaggedOffset(e.remoteTo);
                encode();
                cur = null;
            }
            case ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> {
                untaggedHeader(RdmapOpcode.ATOMIC_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST, e.msn, 0);
                boolean add = e.opcode == SqOpcode.ATOMIC_FETCH_ADD;
                int at = ulpdu().writerIndex();
                ulpdu().writeZero(AtomicRequestHeader.LENGTH);
                atomicRequest.wrap(ulpdu(), at)
                        .atomicOperation(add ? AtomicRequestHeader.OP_FETCH_ADD : AtomicRequestHeader.OP_COMPARE_SWAP)
                        .requestId((int) e.msn).remoteStag(e.remoteStag).remoteTaggedOffset(e.remoteTo)
                        .addOrSwap(add ? e.compareAdd : e.swap).addOrSwapMask(add ? 0L : -1L)
                        .compare(add ? 0 : e.compareAdd).compareMask(add ? 0 : -1L);
                encode();
                cur = null;
            }
            default -> throw new IllegalStateException(e.opcode.toString());
        }
    }

    private static RdmapOpcode sendOpcode(SqEntry e) {
        boolean inv = e.opcode == SqOpcode.SEND_WITH_INVALIDATE || e.opcode == SqOpcode.SEND_WITH_SE_AND_INVALIDATE;
        boolean se = e.solicited || e.opcode == SqOpcode.SEND_WITH_SE || e.opcode == SqOpcode.SEND_WITH_SE_AND_INVALIDATE;
        if (inv) {
            return se ? RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE : RdmapOpcode.SEND_WITH_INVALIDATE;
        }
        return se ? RdmapOpcode.SEND_WITH_SE : RdmapOpcode.SEND;
    }

    /** RFC 7306 section 8.2: Immediate Data (0x8 / 0x9 with SE) on QN 0, 8 bytes after the DDP header. */
    private void immediateData(SqEntry e) {
        untaggedHeader(e.solicited ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE : RdmapOpcode.IMMEDIATE_DATA, true, 0,
                RdmapOpcode.QN_SEND, e.msn, 0);
        ulpdu().writeLong(e.immediateData);
        encode();
    }

    /** One segment of a Read Response (RFC 5040 section 4.5) or an Atomic Response (RFC 7306 section 8.1.2). */
    private void emitResponse() {
        ReadJob j = curRead;
        if (j.atomic) {
            untaggedHeader(RdmapOpcode.ATOMIC_RESPONSE, true, 0, RdmapOpcode.QN_ATOMIC_RESPONSE,
                    ++atomicResponseMsn, 0);
            ulpdu().writeInt(j.requestId);
            ulpdu().writeLong(j.originalValue);
            encode();
            qp.inboundReads.poll();
            curRead = null;
            return;
        }
        if (!readStarted) {
            seg.resetTagged(j.length, mulpdu, TaggedHeader.HEADER_LENGTH, j.sinkTo);
            readStarted = true;
        }
        seg.next();
        taggedHeader(RdmapOpcode.RDMA_READ_RESPONSE, seg.last(), j.sinkStag, seg.offset());
        if (seg.length() > 0) {
            encodePayload(j.source.memory(), j.source.memoryOffset() + (int) (j.sourceOffset + seg.messageOffset()),
                    seg.length());
        } else {
            encode();
        }
        if (seg.last()) {
            qp.inboundReads.poll();
            curRead = null;
        }
    }

    /** The peer-to-peer RTR (RFC 6581 section 5): the initiator's zero-length first FPDU. */
    void sendRtr(RtrType type) {
        switch (type) {
            case WRITE -> {
                taggedHeader(RdmapOpcode.RDMA_WRITE, true, RTR_STAG, 0);
                encode();
            }
            case READ -> {
                untaggedHeader(RdmapOpcode.RDMA_READ_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST, ++requestMsn, 0);
                ulpdu().writeZero(ReadRequestHeader.LENGTH);
                encode();
                qp.rtrReadPending = true;
            }
            case SEND -> {
                untaggedHeader(RdmapOpcode.SEND, true, 0, RdmapOpcode.QN_SEND, ++sendMsn, 0);
                encode();
            }
            default -> {
            }
        }
    }

    /** Encodes and writes a Terminate at once, ahead of nothing else (RFC 5040 section 4.8: QN 2, MSN 1). */
    void sendTerminate(Terminate t) {
        qp.counters.terminate(t.layer(), t.errorType(), t.errorCode(), false);
        ulpdu().clear();
        t.encode(ulpdu(), Terminate.DEFAULT_MSN);
        encoder.encode(ulpdu(), wire.out());
        flushNow();
    }

    /** Starts the ULPDU with a tagged DDP header (RFC 5041 section 4.2) carrying an RDMAP control word. */
    private void taggedHeader(RdmapOpcode op, boolean last, int stag, long to) {
        ulpdu().clear().writeZero(TaggedHeader.HEADER_LENGTH);
        tagged.wrap(ulpdu(), 0).control(RdmapControl.controlWord(op, last)).stag(stag).taggedOffset(to);
    }

    /** Starts the ULPDU with an untagged DDP header (RFC 5041 section 4.3); MSN and MO are sent mod 2^32. */
    private void untaggedHeader(RdmapOpcode op, boolean last, int rsvdUlp, int qn, long msn, long mo) {
        ulpdu().clear().writeZero(UntaggedHeader.HEADER_LENGTH);
        untagged.wrap(ulpdu(), 0).control(RdmapControl.controlWord(op, last)).rsvdUlp(rsvdUlp).queueNumber(qn)
                .msn(msn).messageOffset(mo);
    }

    private void encode() {
        encoder.encode(ulpdu(), wire.out());
    }

    /**
     * Encodes the header in {@code ulpdu} plus {@code len} message bytes at {@code from}: straight from the
     * registered memory when they lie in one SGE (one copy, into the batch), else gathered behind the header.
     */
    private void encodeFrom(Sgl sgl, long from, int len) {
        int index = len == 0 ? -1 : sgl.contiguousIndex(from, len);
        if (index >= 0) {
            if (encodePayload(sgl.foundMemory(), index, len)) {
                curZeroCopy = true;
            }
        } else {
            sgl.gather(from, len, ulpdu());
            encode();
        }
    }

    /**
     * One FPDU: the header in {@code ulpdu} plus {@code len} octets of {@code mem} at {@code index}, zero-copy
     * when the segment is large, in direct memory and markers are off (then true), else copied into the batch.
     */
    private boolean encodePayload(ByteBuf mem, int index, int len) {
        if (len < ZERO_COPY_MIN || !wire.zeroCopyAllowed() || encoder.markers() || !mem.isDirect()
                || mem.nioBufferCount() != 1) {
            encoder.encode(ulpdu(), mem, index, len, wire.out());
            return false;
        }
        encoder.beginFpdu(ulpdu(), len, wire.outGlue());
        encoder.crcPayload(wire.view(mem, index, len));
        wire.writeSlice(mem, index, len);
        encoder.endFpdu(wire.outGlue());
        return true;
    }

}
