package io.jrnic.conform.wire;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Builders of DDP segments carrying RDMAP messages (RFC 5041 section 4, RFC 5040 section 4), each
 * field explicit so that a case can set any of them to an illegal value. The returned buffers are the
 * ULPDU of one FPDU.
 */
public final class Ulpdus {
    private Ulpdus() {
    }

    /** The control word for the opcode with DV 1 and RV 1 (RFC 5041 section 4.2, RFC 5040 section 4.3). */
    public static int control(RdmapOpcode op, boolean last) {
        return RdmapControl.controlWord(op, last);
    }

    /** An untagged segment (RFC 5041 section 4.4) with the extra RDMAP header and payload appended. */
    public static ByteBuf untagged(int control, int rsvdUlp, long qn, long msn, long mo, byte[] extra, byte[] payload) {
        ByteBuf b = Unpooled.buffer(UntaggedHeader.HEADER_LENGTH + extra.length + payload.length);
        b.writeShort(control);
        b.writeInt(rsvdUlp);
        b.writeInt((int) qn);
        b.writeInt((int) msn);
        b.writeInt((int) mo);
        b.writeBytes(extra);
        b.writeBytes(payload);
        return b;
    }

    /** A tagged segment (RFC 5041 section 4.3). */
    public static ByteBuf tagged(int control, int stag, long to, byte[] payload) {
        ByteBuf b = Unpooled.buffer(TaggedHeader.HEADER_LENGTH + payload.length);
        b.writeShort(control);
        b.writeInt(stag);
        b.writeLong(to);
        b.writeBytes(payload);
        return b;
    }

    /** A whole Send (QN 0, MO 0, L set). */
    public static ByteBuf send(long msn, byte[] payload) {
        return untagged(control(RdmapOpcode.SEND, true), 0, RdmapOpcode.QN_SEND, msn, 0, new byte[0], payload);
    }

    /** A Send variant (with SE and/or Invalidate) naming {@code invalidateStag} in RsvdULP. */
    public static ByteBuf send(RdmapOpcode op, int invalidateStag, long msn, byte[] payload) {
        return untagged(control(op, true), invalidateStag, RdmapOpcode.QN_SEND, msn, 0, new byte[0], payload);
    }

    /** A whole RDMA Write. */
    public static ByteBuf write(int stag, long to, byte[] payload) {
        return tagged(control(RdmapOpcode.RDMA_WRITE, true), stag, to, payload);
    }

    /** A whole RDMA Read Response. */
    public static ByteBuf readResponse(int stag, long to, byte[] payload) {
        return tagged(control(RdmapOpcode.RDMA_READ_RESPONSE, true), stag, to, payload);
    }

    /** The 28-byte RDMA Read Request header (RFC 5040 section 4.4). */
    public static byte[] readRequestHeader(int sinkStag, long sinkTo, long size, int srcStag, long srcTo) {
        ByteBuf h = Unpooled.buffer(ReadRequestHeader.LENGTH);
        h.writeInt(sinkStag);
        h.writeLong(sinkTo);
        h.writeInt((int) size);
        h.writeInt(srcStag);
        h.writeLong(srcTo);
        byte[] a = new byte[ReadRequestHeader.LENGTH];
        h.readBytes(a);
        return a;
    }

    /** A whole RDMA Read Request (QN 1). */
    public static ByteBuf readRequest(long msn, int sinkStag, long sinkTo, long size, int srcStag, long srcTo) {
        return untagged(control(RdmapOpcode.RDMA_READ_REQUEST, true), 0, RdmapOpcode.QN_READ_REQUEST, msn, 0,
                readRequestHeader(sinkStag, sinkTo, size, srcStag, srcTo), new byte[0]);
    }

    /** A whole RFC 7306 Atomic Request (QN 1, section 8.1.1): operation word, request id, STag, TO, four operands. */
    public static ByteBuf atomicRequest(long msn, int operation, int requestId, int stag, long to, long addOrSwap) {
        ByteBuf h = Unpooled.buffer(io.jrnic.rdmap.AtomicRequestHeader.LENGTH);
        h.writeInt(operation);
        h.writeInt(requestId);
        h.writeInt(stag);
        h.writeLong(to);
        h.writeLong(addOrSwap);
        h.writeLong(-1L); // add-or-swap mask
        h.writeLong(0);  // compare
        h.writeLong(-1L); // compare mask
        return untagged(control(RdmapOpcode.ATOMIC_REQUEST, true), 0, RdmapOpcode.QN_READ_REQUEST, msn, 0, h.array(),
                new byte[0]);
    }

    /** rping's 16-byte buffer descriptor {addr u64, rkey u32, size u32}, big-endian. */
    public static byte[] descriptor(long addr, int rkey, int size) {
        ByteBuf b = Unpooled.buffer(16);
        b.writeLong(addr);
        b.writeInt(rkey);
        b.writeInt(size);
        return b.array();
    }

    /** A copy of the readable bytes. */
    public static byte[] bytes(ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), a);
        return a;
    }

    /** True when the ULPDU is an RDMAP message with this opcode in the expected DDP model. */
    public static boolean is(byte[] ulpdu, RdmapOpcode op) {
        if (ulpdu == null || ulpdu.length < 2) {
            return false;
        }
        int c = ((ulpdu[0] & 0xFF) << 8) | (ulpdu[1] & 0xFF);
        return DdpControl.isTagged(c) == op.tagged() && RdmapControl.opcodeCode(c) == op.code();
    }
}
