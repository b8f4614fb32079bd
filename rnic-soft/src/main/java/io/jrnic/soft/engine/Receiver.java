package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedCompletion;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.ddp.UntaggedPlacement;
import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.IwarpError;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.PayloadTarget;
import io.jrnic.rdmap.ImmediateDataHeader;
import io.jrnic.rdmap.MalformedTerminateException;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.RdmapValidator;
import io.jrnic.rdmap.ReadRequestHeader;
import io.jrnic.rdmap.RemoteInvalidate;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.rdmap.TerminateHeader;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.RemoteAccess;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelOutputShutdownEvent;

/**
 * The receiving half of a stream, the data-phase handler that replaces the MPA handshake: bytes ->
 * {@link FpduDecoder} (framing, markers, CRC checked before anything is placed, RFC 5044 sections 4-6)
 * -> {@link RdmapValidator} (RFC 5040 section 7) -> placement straight into the target memory: tagged
 * segments by STag/TO (RFC 5041 section 5.3), untagged ones into posted receives by MSN/MO; Read and
 * Atomic Requests are checked and queued within IRD for the {@link Transmitter} ({@link InboundRequests}); a
 * received Terminate fails the QP. Every violation is answered with the Terminate the reference table names.
 * With {@link DirectPlacement} the payload of an FPDU cut across reads is read into its target before its CRC is
 * checked (spec-notes/placement.md); the FPDU is acted on, by the same code, only once its CRC checked good.
 *
 * <p>As the bound stream's only handler it also carries the stream's lifetime to the QP's owner
 * (spec-notes/engine.md, "Close"): every close of the channel runs holding the QP's ownership, and the peer's FIN
 * or a failed write arrive as events (auto-close off, half-closure on), never as a close Netty makes by itself.
 */
final class Receiver extends ChannelDuplexHandler implements FpduListener {
    private final QpEngine qp;
    private final FpduDecoder decoder;
    private final RdmapValidator validator;
    private final RemoteAccess access;
    private final DirectPlacement direct;
    private final UntaggedPlacement placement = new UntaggedPlacement();
    /** Read and Atomic Requests (QN 1), checked and queued within IRD. */
    private final InboundRequests requests;
    /** Read and Atomic Responses to this QP's own requests (the ORQ). */
    private final InboundResponses responses;
    /**
     * The loop's reads since its last channelReadComplete left the sending side work (seen holding the token after
     * each read): only then does channelReadComplete take the token again to pump. Loop thread only.
     */
    private boolean pumpAfterReads;
    final UntaggedCompletion untaggedCompletion = new UntaggedCompletion();

    /** Run once this stream's end was processed (the connection manager's disconnect), or null. */
    private final Runnable onStreamEnd;

    Receiver(QpEngine qp, StreamParams p, Runnable onStreamEnd) {
        this.qp = qp;
        this.onStreamEnd = onStreamEnd;
        this.decoder = new FpduDecoder(p.crc(), p.markersRx(), this);
        this.validator = new RdmapValidator(p.rdmapExtensions());
        this.access = new RemoteAccess(qp.table, qp.pdId);
        this.requests = new InboundRequests(qp, access);
        this.direct = new DirectPlacement(qp, decoder, new RdmapValidator(p.rdmapExtensions()),
                new RemoteAccess(qp.table, qp.pdId));
        this.responses = new InboundResponses(qp, access, direct);
    }

    /** Direct placement from the socket on this stream: the read paths ask it where their next read goes. */
    DirectPlacement direct() {
        return direct;
    }

    /** Decoder counters (CRC errors, edge-marker readings) for tools. */
    FpduDecoder decoder() {
        return decoder;
    }

    void feed(ByteBuf in) {
        qp.counters.add(Counter.RX_BYTES, in.readableBytes());
        qp.drainRecvs();
        if (direct.returned(in)) {
            direct.placed(in.readableBytes());
        } else {
            direct.checkTarget();
            decoder.feed(in);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        qp.lock.lock();
        try {
            if (!qp.stream.rxStopped() && qp.boundTo(ctx.channel())) { // a previous stream's late bytes are dropped
                feed(in);
                pumpAfterReads |= qp.sendingSideHasWork();
            }
        } finally {
            qp.loopReadFed();
            qp.lock.unlock();
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pumpAfterReads && qp.boundTo(ctx.channel())) {
            pumpAfterReads = false;
            qp.readComplete();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && qp.boundTo(ctx.channel())) {
            qp.writable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        qp.teardown.channelInactive(ctx.channel(), () -> decoder.partialFpduOctets() > 0);
        if (onStreamEnd != null) {
            onStreamEnd.run(); // after the QP left RTS: whoever waits for the disconnect finds it so
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // reset or I/O error: the stream is lost (RFC 5044 section 8, LLP 0x01)
        qp.teardown.streamLost(ctx.channel());
    }

    /**
     * The peer's FIN (or a read error) shut the input; a failed write shut the output: the stream ends here, closed
     * by the QP's owner (see the class comment). An output shut the engine asked for (FIN after a Terminate) is not
     * a loss.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            qp.teardown.inputEnded(ctx.channel());
        } else if (evt instanceof ChannelOutputShutdownEvent) {
            qp.teardown.outputShut(ctx.channel());
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** Every close of the bound stream, from any caller: done holding the QP's ownership ({@link StreamTeardown#closeOwned}). */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        qp.teardown.closeOwned(ctx, promise);
    }

    @Override
    public void onError(LlpError error, long streamOffset, String detail) {
        // RFC 5044 section 8: CRC or marker error; nothing of the FPDU is trusted, so no header attached
        qp.counters.inc(error == LlpError.CRC_ERROR ? Counter.CRC_ERRORS : Counter.MARKER_ERRORS);
        qp.teardown.terminate(Terminate.of(error), null, null);
    }

    @Override
    public boolean onFpduHead(ByteBuf head, int ulpduLength, long fpduStreamOffset, PayloadTarget target) {
        return direct.target(head, ulpduLength, target);
    }

    /** An FPDU whose payload was placed before its CRC, which checked good: acted on as a copied one. */
    @Override
    public void onPlacedFpdu(ByteBuf head, int ulpduLength, long fpduStreamOffset, CrcCheck crc) {
        qp.counters.inc(Counter.RX_DIRECT_FPDUS);
        direct.delivering(true);
        try {
            segment(head, head.readerIndex(), ulpduLength);
        } finally {
            direct.delivering(false);
        }
    }

    @Override
    public void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck crc) {
        segment(ulpdu, ulpdu.readerIndex(), ulpdu.readableBytes());
    }

    /** A ULPDU of {@code len} octets at {@code at} (for a placed FPDU: its headers; the payload is in place). */
    private void segment(ByteBuf ulpdu, int at, int len) {
        if (qp.stream.rxStopped()) {
            return;
        }
        IwarpError e = validator.validate(ulpdu, at, len);
        if (e != null) {
            reject(e, ulpdu, at, len, null, null);
            return;
        }
        qp.binding.firstFpduReceived();
        RdmapOpcode op = validator.opcode();
        qp.counters.received(op, ulpdu.getByte(at));
        switch (op) {
            case RDMA_WRITE -> write(ulpdu, at, len);
            case RDMA_READ_RESPONSE -> rejectIf(responses.readResponse(ulpdu, at, len), ulpdu, at, len);
            case SEND, SEND_WITH_INVALIDATE, SEND_WITH_SE, SEND_WITH_SE_AND_INVALIDATE, IMMEDIATE_DATA,
                    IMMEDIATE_DATA_WITH_SE -> untagged(op, ulpdu, at, len);
            case RDMA_READ_REQUEST -> rejectIf(requests.readRequest(ulpdu, at), ulpdu, at, len);
            case ATOMIC_REQUEST -> rejectIf(requests.atomicRequest(ulpdu, at), ulpdu, at, len);
            case ATOMIC_RESPONSE -> rejectIf(responses.atomicResponse(ulpdu, at), ulpdu, at, len);
            case TERMINATE -> terminate(ulpdu, at, len);
            default -> reject(RdmapError.UNEXPECTED_OPCODE, ulpdu, at, len, null, null);
        }
    }

    /** Sends the Terminate for a segment (RFC 5040 section 4.8: D with the DDP header, R for a Read Request). */
    private void reject(IwarpError e, ByteBuf buf, int at, int len, RqEntry failing, Status failingStatus) {
        Terminate t = Terminate.of(e);
        if (len >= DdpControl.LENGTH && len >= DdpControl.headerLength(buf.getUnsignedShort(at))) {
            t = t.withDdpSegment(buf, at, len, true);
            boolean readRequest = !DdpControl.isTagged(buf.getUnsignedShort(at))
                    && (buf.getUnsignedShort(at) & DdpControl.OPCODE_MASK) == RdmapOpcode.RDMA_READ_REQUEST.code();
            if (readRequest && len >= UntaggedHeader.HEADER_LENGTH + ReadRequestHeader.LENGTH) {
                t = t.withRdmapHeader(buf, at + UntaggedHeader.HEADER_LENGTH);
            }
        }
        qp.teardown.terminate(t, failing, failingStatus);
    }

    /** {@link #reject} for a segment whose checks found {@code e} (none: nothing to do). */
    private void rejectIf(IwarpError e, ByteBuf buf, int at, int len) {
        if (e != null) {
            reject(e, buf, at, len, null, null);
        }
    }

    /** RDMA Write (RFC 5040 section 4.3): tagged placement into a region with REMOTE_WRITE. */
    private void write(ByteBuf buf, int at, int len) {
        int payload = len - TaggedHeader.HEADER_LENGTH;
        IwarpError e = access.checkTaggedSink(buf.getUnsignedShort(at), TaggedHeader.stag(buf, at),
                TaggedHeader.taggedOffset(buf, at), payload, AccessFlags.REMOTE_WRITE);
        if (e != null) {
            reject(e, buf, at, len, null, null);
            return;
        }
        direct.place(access.region(), access.regionOffset(), buf, at + TaggedHeader.HEADER_LENGTH, payload);
    }


    /** Send family and Immediate Data (RFC 5040 section 4.3, RFC 7306 section 8.2): QN 0 into posted receives. */
    private void untagged(RdmapOpcode op, ByteBuf buf, int at, int len) {
        qp.drainRecvs();
        int control = buf.getUnsignedShort(at);
        long msn = UntaggedHeader.msn(buf, at);
        if (UntaggedHeader.messageOffset(buf, at) == 0) {
            qp.rq.takeFromSrq(msn);
        }
        int header = UntaggedHeader.HEADER_LENGTH + op.extraHeaderLength();
        int payload = len - header;
        DdpError e = qp.rq.untagged().accept(control, UntaggedHeader.queueNumber(buf, at), msn,
                UntaggedHeader.messageOffset(buf, at), payload, placement);
        if (e != null) {
            RqEntry failing = e == DdpError.MESSAGE_TOO_LONG ? qp.rq.entryForMsn(msn) : null;
            reject(e, buf, at, len, failing, Status.LOCAL_LENGTH_ERROR);
            return;
        }
        RqEntry r = qp.rq.entry(placement.bufferId());
        if (payload > 0) {
            direct.scatter(r.sgl, placement.bufferOffset(), buf, at + header, payload);
        }
        if (!placement.messageComplete()) {
            return;
        }
        r.solicited = op.solicitedEvent();
        if (op == RdmapOpcode.IMMEDIATE_DATA || op == RdmapOpcode.IMMEDIATE_DATA_WITH_SE) {
            r.immediate = true;
            r.immediateData = ImmediateDataHeader.immediateData(buf, at + UntaggedHeader.HEADER_LENGTH);
        }
        if (op.carriesInvalidateStag()) {
            int stag = UntaggedHeader.rsvdUlp(buf, at);
            IwarpError ie = invalidate(stag);
            if (ie != null) {
                reject(ie, buf, at, len, null, null);
                return;
            }
            r.invalidated = true;
            r.invalidatedStag = stag;
        }
        qp.retireRecvs();
    }

    /** Send with Invalidate ({@link RemoteInvalidate}): the named STag of this PD stops working before completion. */
    private IwarpError invalidate(int stag) {
        SoftRegion r = qp.table.lookup(stag);
        IwarpError e = RemoteInvalidate.check(r, qp.pdId);
        if (e == null) {
            r.invalidate();
        }
        return e;
    }

    /**
     * A Terminate from the peer (RFC 5040 section 4.8), read in the connection's layout
     * ({@link StreamParams#terminates()}: RFC, siw's bitfield reading, or either); the layout that
     * matched is kept for the TerminateInfo. A Terminate no layout can parse is still a Terminate:
     * its triple is taken from the Control word as the layout reads it (EITHER: the RFC reading).
     */
    private void terminate(ByteBuf buf, int at, int len) {
        TerminateDecoder.Mode mode = qp.params.terminates();
        Terminate t;
        try {
            TerminateDecoder.Match m = TerminateDecoder.decodeMatch(buf, at, len, mode);
            t = m.terminate();
            qp.terminateReadIn(m.layout());
        } catch (MalformedTerminateException ex) {
            boolean siw = mode == TerminateDecoder.Mode.SIW_QUIRK;
            int c = at + UntaggedHeader.HEADER_LENGTH;
            int layer = TerminateHeader.layer(buf, c);
            int type = TerminateHeader.errorType(buf, c);
            t = new Terminate(siw ? type : layer, siw ? layer : type, TerminateHeader.errorCode(buf, c), false, 0,
                    null, null);
            qp.terminateReadIn(siw ? mode : TerminateDecoder.Mode.STRICT);
        }
        qp.teardown.terminateReceived(t);
    }
}
