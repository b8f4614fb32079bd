package io.jrnic.soft.engine;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.IwarpError;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.RdmapError;
import io.jrnic.rdmap.ReadRequestHeader;
import io.jrnic.soft.mem.AccessFlags;
import io.jrnic.soft.mem.RemoteAccess;
import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;

/**
 * The Requests a peer sends on QN 1, as the {@link Receiver} hands them over once validated: RDMA Read Requests
 * (RFC 5040 section 4.4) and Atomic Requests (RFC 7306 section 8.1.1), which share QN 1's MSNs. Each is checked
 * (sequence, IRD, source access) and accepted into the QP's inbound Read/Atomic queue, which the
 * {@link Transmitter} answers in order; an Atomic Request is carried out at arrival. A check that fails returns the
 * error, for the Receiver to answer with its Terminate. Under the QP's lock, like the Receiver whose
 * {@link RemoteAccess} it shares.
 */
final class InboundRequests {
    private final QpEngine qp;
    private final RemoteAccess access;
    private final AtomicRequestHeader atomicHeader = new AtomicRequestHeader();
    private long expectedRequestMsn = 1;

    InboundRequests(QpEngine qp, RemoteAccess access) {
        this.qp = qp;
        this.access = access;
    }

    /** Checks the QN 1 sequence (RFC 5041 section 5.3: MSN in order, MO 0, one segment) and IRD. */
    private IwarpError requestSequence(ByteBuf buf, int at) {
        int control = buf.getUnsignedShort(at);
        long msn = UntaggedHeader.msn(buf, at);
        if (msn != expectedRequestMsn) {
            return DdpError.MSN_OUT_OF_RANGE;
        }
        if (UntaggedHeader.messageOffset(buf, at) != 0) {
            return DdpError.INVALID_MO;
        }
        if (!DdpControl.isLast(control)) {
            return DdpError.MESSAGE_TOO_LONG;
        }
        if (qp.inboundReads.size() >= qp.params.ird()) {
            // reference section 4: a Read Request beyond IRD (siw: remote operation 0x07)
            return RdmapError.CATASTROPHIC_STREAM;
        }
        return null;
    }

    /** RDMA Read Request (RFC 5040 section 4.4): source checked (REMOTE_READ), queued within IRD; null, or why not. */
    IwarpError readRequest(ByteBuf buf, int at) {
        IwarpError e = requestSequence(buf, at);
        int h = at + UntaggedHeader.HEADER_LENGTH;
        long size = ReadRequestHeader.readSize(buf, h);
        if (e == null && size > 0) {
            e = access.checkSource(ReadRequestHeader.srcStag(buf, h), ReadRequestHeader.srcTaggedOffset(buf, h),
                    size, AccessFlags.REMOTE_READ);
        }
        if (e != null) {
            return e;
        }
        expectedRequestMsn++;
        qp.inboundReads.addRead(access.region(), access.regionOffset(), size,
                ReadRequestHeader.sinkStag(buf, h), ReadRequestHeader.sinkTaggedOffset(buf, h));
        qp.counters.max(Counter.IRD_HIGH_WATER, qp.inboundReads.size());
        return null;
    }

    /**
     * Atomic Request (RFC 7306 section 8.1.1): 8 aligned bytes of a REMOTE_ATOMIC region, done at arrival; null, or
     * why not.
     */
    IwarpError atomicRequest(ByteBuf buf, int at) {
        IwarpError e = requestSequence(buf, at);
        int h = at + UntaggedHeader.HEADER_LENGTH;
        long to = AtomicRequestHeader.remoteTaggedOffset(buf, h);
        int opCode = AtomicRequestHeader.atomicOperation(buf, h);
        if (e == null && opCode != AtomicRequestHeader.OP_FETCH_ADD && opCode != AtomicRequestHeader.OP_COMPARE_SWAP) {
            e = RdmapError.UNEXPECTED_OPCODE;
        }
        if (e == null) {
            e = access.checkSource(AtomicRequestHeader.remoteStag(buf, h), to, 8, AccessFlags.REMOTE_ATOMIC);
        }
        if (e == null && (to & 7) != 0) {
            e = RdmapError.BASE_OR_BOUNDS;
        }
        if (e != null) {
            return e;
        }
        expectedRequestMsn++;
        SoftRegion r = access.region();
        int index = r.memoryOffset() + (int) access.regionOffset();
        AtomicRequestHeader a = atomicHeader.wrap(buf, h);
        long original;
        synchronized (r) {
            original = r.memory().getLong(index);
            long updated = opCode == AtomicRequestHeader.OP_FETCH_ADD
                    ? Atomics.fetchAdd(original, a.addOrSwap(), a.addOrSwapMask())
                    : Atomics.compareSwap(original, a.compare(), a.compareMask(), a.addOrSwap(), a.addOrSwapMask());
            r.memory().setLong(index, updated);
        }
        qp.inboundReads.addAtomicResponse(AtomicRequestHeader.requestId(buf, h), original);
        qp.counters.max(Counter.IRD_HIGH_WATER, qp.inboundReads.size());
        return null;
    }
}
