package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpSegmenter;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.RtrType;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.netty.channel.Channel;

/**
 * The sending half of a stream: work requests and inbound Read/Atomic Requests become DDP segments
 * (RFC 5041 section 5.2, {@link DdpSegmenter}), RDMAP messages (RFC 5040 section 4) and FPDUs
 * ({@link FpduFraming}, RFC 5044 section 4), gathered by {@link TxWire} into batch buffers of about 64 KiB
 * that are written as the channel stays writable (backpressure: a QP holds at most one batch plus the
 * channel's high water mark). One message at a time: segments of two messages never interleave (RFC 5041
 * section 5.2); answers to Read Requests go first at message boundaries.
 *
 * <p>Zero-copy transmit: a payload segment of at least {@link FpduFraming#ZERO_COPY_MIN} octets in direct memory,
 * markers off, is not copied but written as a reused view of the registered memory ({@link PayloadSlice}).
 * A work request whose payload went this way completes only when its last slice has left the channel's
 * outbound buffer (its {@link WireMark}), so the consumer may reuse the memory after the completion.
 *
 * <p>Transmit in place ({@link #pumpInPlace()}): when the QP is idle (nothing being sent, nothing in the channel's
 * outbound buffer) the posting thread, holding the QP's lock, encodes at most {@link #IN_PLACE_BATCHES} batches
 * (copied, never zero-copy) and writes them straight into the socket of an epoll channel whose pipeline holds
 * only the Receiver: no wake-up of the event loop, and the copied messages complete on the poster. What the
 * socket does not take is the hand-over, written by the event loop before anything else.
 * {@link Diagnostics} can turn it off.
 * Everything else runs on the event loop; all of it under the QP's lock ({@link QpEngine}).
 */
final class Transmitter {
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
    private final int mulpdu;
    private final DdpSegmenter seg = new DdpSegmenter();
    /** The current WR sent some payload zero-copy: it completes by its {@link WireMark}. */
    private boolean curZeroCopy;
    private SqEntry cur;
    private final TxWire wire;
    /** Headers, payload and FPDU framing of each segment (reused staging and flyweights). */
    private final FpduFraming framing;
    private ReadJob curRead;
    private boolean readStarted;
    private long sendMsn;
    private long requestMsn;
    private long atomicResponseMsn;

    Transmitter(QpEngine qp, Channel ch, StreamParams p) {
        this.qp = qp;
        this.ch = ch;
        this.mulpdu = p.mulpdu();
        this.wire = new TxWire(qp, ch, mulpdu, p.transmitStallTimeoutMillis());
        this.framing = new FpduFraming(qp, wire, p);
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
        return cur == null && curRead == null && !wire.handoverPending() && qp.sends.allStarted()
                && qp.inboundReads.isEmpty();
    }

    /** Nothing half sent and nothing encoded but unwritten: a pump would find no work of its own. */
    boolean nothingPending() {
        return cur == null && curRead == null && wire.nothingPending();
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
            if (wire.batchFull(messageTail())) {
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

    /**
     * Payload octets of the message being sent still to frame, after the FPDU just emitted (a Read Response or a
     * request: the segmenter's rest; an immediate-data FPDU still to follow a WRITE counts as its 8).
     */
    private long messageTail() {
        if (cur != null && cur.immediatePhase) {
            return 8;
        }
        return cur != null || curRead != null ? seg.remaining() : 0;
    }

    /** Everything encoded so far goes out (counters published once per flush, not per FPDU). */
    void flushNow() {
        framing.publishCounters();
        wire.flush();
    }

    /** Called when the channel turned writable: ends a backpressure stall. */
    void writable() {
        wire.writable();
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
        SqEntry e = qp.sends.startable(qp.params.ord());
        if (e == null) {
            return false;
        }
        qp.sends.started();
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
                    framing.messageStarts();
                }
                case RDMA_WRITE, RDMA_WRITE_WITH_IMMEDIATE -> {
                    seg.resetTagged(e.sgl.total(), mulpdu, TaggedHeader.HEADER_LENGTH, e.remoteTo);
                    framing.messageStarts();
                }
                case IMMEDIATE_DATA -> e.msn = ++sendMsn;
                case RDMA_READ, ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> {
                    e.msn = ++requestMsn;
                    qp.sends.requestSent(e);
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
        flushNow(); // payloads gathered in place leave before the completions of their WRs can be seen
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
                seg.next(framing.maxUlpdu() - UntaggedHeader.HEADER_LENGTH);
                RdmapOpcode op = sendOpcode(e);
                framing.untaggedHeader(op, seg.last(), op.carriesInvalidateStag() ? e.invalidateStag : 0,
                        RdmapOpcode.QN_SEND, e.msn, seg.offset());
                curZeroCopy |= framing.encodeFrom(e.sgl, seg.messageOffset(), seg.length());
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
                seg.next(framing.maxUlpdu() - TaggedHeader.HEADER_LENGTH);
                framing.taggedHeader(RdmapOpcode.RDMA_WRITE, seg.last(), e.remoteStag, seg.offset());
                curZeroCopy |= framing.encodeFrom(e.sgl, seg.messageOffset(), seg.length());
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
                framing.untaggedHeader(RdmapOpcode.RDMA_READ_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST, e.msn, 0);
                boolean hasSink = e.sgl.count() > 0;
                framing.readRequestHeader()
                        .sinkStag(hasSink ? e.sgl.region(0).stag() : 0)
                        .sinkTaggedOffset(hasSink ? e.sgl.region(0).baseTaggedOffset() + e.sgl.offset(0) : 0)
                        .readSize(e.sgl.total()).srcStag(e.remoteStag).srcTaggedOffset(e.remoteTo);
                framing.encode();
                cur = null;
            }
            case ATOMIC_FETCH_ADD, ATOMIC_COMPARE_SWAP -> {
                framing.untaggedHeader(RdmapOpcode.ATOMIC_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST, e.msn, 0);
                boolean add = e.opcode == SqOpcode.ATOMIC_FETCH_ADD;
                framing.atomicRequestHeader()
                        .atomicOperation(add ? AtomicRequestHeader.OP_FETCH_ADD : AtomicRequestHeader.OP_COMPARE_SWAP)
                        .requestId((int) e.msn).remoteStag(e.remoteStag).remoteTaggedOffset(e.remoteTo)
                        .addOrSwap(add ? e.compareAdd : e.swap).addOrSwapMask(add ? 0L : -1L)
                        .compare(add ? 0 : e.compareAdd).compareMask(add ? 0 : -1L);
                framing.encode();
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
        framing.untaggedHeader(e.solicited ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE : RdmapOpcode.IMMEDIATE_DATA, true,
                0, RdmapOpcode.QN_SEND, e.msn, 0);
        framing.ulpdu().writeLong(e.immediateData);
        framing.encode();
    }

    /** One segment of a Read Response (RFC 5040 section 4.5) or an Atomic Response (RFC 7306 section 8.1.2). */
    private void emitResponse() {
        ReadJob j = curRead;
        if (j.atomic) {
            framing.untaggedHeader(RdmapOpcode.ATOMIC_RESPONSE, true, 0, RdmapOpcode.QN_ATOMIC_RESPONSE,
                    ++atomicResponseMsn, 0);
            framing.ulpdu().writeInt(j.requestId).writeLong(j.originalValue);
            framing.encode();
            qp.inboundReads.poll();
            curRead = null;
            return;
        }
        if (!readStarted) {
            seg.resetTagged(j.length, mulpdu, TaggedHeader.HEADER_LENGTH, j.sinkTo);
            framing.messageStarts();
            readStarted = true;
        }
        seg.next(framing.maxUlpdu() - TaggedHeader.HEADER_LENGTH);
        framing.taggedHeader(RdmapOpcode.RDMA_READ_RESPONSE, seg.last(), j.sinkStag, seg.offset());
        if (seg.length() > 0) {
            framing.encodePayload(j.source.memory(),
                    j.source.memoryOffset() + (int) (j.sourceOffset + seg.messageOffset()), seg.length());
        } else {
            framing.encode();
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
                framing.taggedHeader(RdmapOpcode.RDMA_WRITE, true, RTR_STAG, 0);
                framing.encode();
            }
            case READ -> {
                framing.untaggedHeader(RdmapOpcode.RDMA_READ_REQUEST, true, 0, RdmapOpcode.QN_READ_REQUEST,
                        ++requestMsn, 0);
                framing.readRequestHeader(); // all zero: no sink, no source, size 0
                framing.encode();
                qp.stream.rtrReadSent();
            }
            case SEND -> {
                framing.untaggedHeader(RdmapOpcode.SEND, true, 0, RdmapOpcode.QN_SEND, ++sendMsn, 0);
                framing.encode();
            }
            default -> {
            }
        }
    }

    /** Encodes and writes a Terminate at once, ahead of nothing else (RFC 5040 section 4.8: QN 2, MSN 1). */
    void sendTerminate(Terminate t) {
        qp.counters.terminate(t.layer(), t.errorType(), t.errorCode(), false);
        t.encode(framing.ulpdu().clear(), Terminate.DEFAULT_MSN);
        framing.encode();
        flushNow();
    }
}
