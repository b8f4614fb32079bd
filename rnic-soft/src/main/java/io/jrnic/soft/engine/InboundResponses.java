package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.IwarpError;
import io.jrnic.rdmap.AtomicResponseHeader;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.RemoteAccess;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;

/**
 * The answers to this QP's own Read and Atomic Requests, as the {@link Receiver} hands them over once validated:
 * Read Responses (RFC 5040 section 4.5) placed into the sink of the oldest outstanding Read, in order, and Atomic
 * Responses (RFC 7306 section 8.1.2), whose original value lands in the requester's 8-byte SGE; each completes its
 * request (the ORQ's head) when its last octet is in. A check that fails returns the error, for the Receiver to
 * answer with its Terminate, as {@link InboundRequests} does for the peer's requests. Under the QP's lock, like the
 * Receiver whose {@link RemoteAccess} and {@link DirectPlacement} it shares.
 */
final class InboundResponses {
    private final QpEngine qp;
    private final RemoteAccess access;
    private final DirectPlacement direct;
    private long expectedAtomicResponseMsn = 1;

    InboundResponses(QpEngine qp, RemoteAccess access, DirectPlacement direct) {
        this.qp = qp;
        this.access = access;
        this.direct = direct;
    }

    /** A Read Response segment of {@code len} octets at {@code at}: placed, its Read done at the last; or why not. */
    IwarpError readResponse(ByteBuf buf, int at, int len) {
        if (qp.stream.rtrReadPending()) {
            // the answer to our zero-length READ RTR (RFC 6581 section 5)
            if (len == TaggedHeader.HEADER_LENGTH && DdpControl.isLast(buf.getUnsignedShort(at))) {
                qp.stream.rtrReadAnswered();
                return null;
            }
            return DdpError.BASE_OR_BOUNDS;
        }
        SqEntry head = qp.sends.oldestRequest();
        if (head == null || head.opcode != SqOpcode.RDMA_READ) {
            return RdmapError.UNEXPECTED_OPCODE;
        }
        int control = buf.getUnsignedShort(at);
        int stag = TaggedHeader.stag(buf, at);
        long to = TaggedHeader.taggedOffset(buf, at);
        int payload = len - TaggedHeader.HEADER_LENGTH;
        boolean hasSink = head.sgl.count() > 0;
        int sinkStag = hasSink ? head.sgl.region(0).stag() : 0;
        long sinkTo = hasSink ? head.sgl.region(0).baseTaggedOffset() + head.sgl.offset(0) : 0;
        long received = head.byteLength;
        if (payload > 0 || DdpControl.isLast(control)) {
            if (payload > 0 && stag != sinkStag) {
                return DdpError.INVALID_STAG;
            }
            if (payload > 0 && (to != sinkTo + received || received + payload > head.sgl.total())) {
                return DdpError.BASE_OR_BOUNDS;
            }
        }
        if (payload > 0) {
            IwarpError e = access.checkTaggedSink(control, stag, to, payload, AccessFlags.LOCAL_WRITE);
            if (e != null) {
                return e;
            }
            direct.place(access.region(), access.regionOffset(), buf, at + TaggedHeader.HEADER_LENGTH, payload);
        }
        head.byteLength += payload;
        if (DdpControl.isLast(control)) {
            if (head.byteLength != head.sgl.total()) {
                return DdpError.BASE_OR_BOUNDS;
            }
            qp.sends.requestAnswered();
            head.done = true;
        }
        return null;
    }

    /** An Atomic Response: the original value into the oldest request's SGE, the request done; or why not. */
    IwarpError atomicResponse(ByteBuf buf, int at) {
        SqEntry head = qp.sends.oldestRequest();
        int h = at + UntaggedHeader.HEADER_LENGTH;
        if (UntaggedHeader.msn(buf, at) != expectedAtomicResponseMsn) {
            return DdpError.MSN_OUT_OF_RANGE;
        }
        if (head == null || !head.opcode.isAtomic() || AtomicResponseHeader.requestId(buf, h) != (int) head.msn) {
            return RdmapError.UNEXPECTED_OPCODE;
        }
        expectedAtomicResponseMsn++;
        SoftRegion r = head.sgl.region(0);
        r.memory().setLong(r.memoryOffset() + head.sgl.offset(0), AtomicResponseHeader.originalValue(buf, h));
        head.byteLength = 8;
        qp.sends.requestAnswered();
        head.done = true;
        return null;
    }
}
