package io.jrnic.interop.decode;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.rdmap.AtomicRequestHeader;
import io.jrnic.rdmap.AtomicResponseHeader;
import io.jrnic.rdmap.ImmediateDataHeader;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.ReadRequestHeader;
import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Decodes the DDP and RDMAP headers of the ULPDUs of one stream direction and checks them
 * (RFC 5041 sections 4 and 5.3, RFC 5040 section 4, RFC 7306 section 8), keeping the per-queue
 * MSN/MO state a Data Sink keeps.
 */
final class DdpRdmapChecker {
    private final int stream;
    private final Direction dir;
    private final io.jrnic.rdmap.TerminateDecoder.Mode terminates;
    private final Consumer<Violation> out;
    private final Map<Long, long[]> queues = new HashMap<>();  // QN -> {msn, nextMo, open(1)/closed(0)}
    private long terminatedAt = -1;

    DdpRdmapChecker(int stream, Direction dir, io.jrnic.rdmap.TerminateDecoder.Mode terminates, Consumer<Violation> out) {
        this.stream = stream;
        this.dir = dir;
        this.terminates = terminates;
        this.out = out;
    }

    private void report(Check c, long frame, long offset, String detail) {
        out.accept(new Violation(c, stream, dir, frame, offset, detail));
    }

    /** Decodes and checks one ULPDU (readable bytes of {@code u}). */
    FpduRecord inspect(ByteBuf u, long frame, long endFrame, long offset, CrcStatus crc) {
        int len = u.readableBytes();
        int at = u.readerIndex();
        if (terminatedAt >= 0) {
            report(Check.FPDU_AFTER_TERMINATE, frame, offset, "FPDU after the Terminate of frame " + terminatedAt);
        }
        if (len < DdpControl.LENGTH) {
            report(Check.ULPDU_TOO_SHORT, frame, offset, "ULPDU of " + len + " bytes has no DDP control field");
            return new FpduRecord(stream, dir, frame, endFrame, offset, len, -1, false, false, 0, 0, 0, 0, 0, 0, crc, "");
        }
        int control = u.getUnsignedShort(at);
        boolean tagged = DdpControl.isTagged(control);
        if (DdpControl.ddpVersion(control) != DdpControl.DDP_VERSION) {
            report(Check.DDP_VERSION, frame, offset, "DV " + DdpControl.ddpVersion(control));
        }
        if (DdpControl.reservedBits(control) != 0) {
            report(Check.DDP_RESERVED, frame, offset, String.format("control 0x%04x has reserved bits 0x%04x",
                    control, DdpControl.reservedBits(control)));
        }
        if (RdmapControl.rdmapVersion(control) != RdmapControl.RDMAP_VERSION) {
            report(Check.RDMAP_VERSION, frame, offset, "RV " + RdmapControl.rdmapVersion(control));
        }
        if (RdmapControl.reservedBits(control) != 0) {
            report(Check.RDMAP_RESERVED, frame, offset, String.format("control 0x%04x has RDMAP reserved bits 0x%04x",
                    control, RdmapControl.reservedBits(control)));
        }
        RdmapOpcode op = RdmapControl.opcode(control);
        if (op == null) {
            report(Check.OPCODE_INVALID, frame, offset, String.format("opcode 0x%x", RdmapControl.opcodeCode(control)));
        } else if (op.tagged() != tagged) {
            report(Check.MODEL_MISMATCH, frame, offset, op.rfcName() + " with T=" + (tagged ? 1 : 0));
        }
        int hdr = DdpControl.headerLength(control);
        if (len < hdr) {
            report(Check.ULPDU_TOO_SHORT, frame, offset, "ULPDU of " + len + " bytes, " + (tagged ? "tagged" : "untagged")
                    + " DDP header needs " + hdr);
            return new FpduRecord(stream, dir, frame, endFrame, offset, len, control, false, false, 0, 0, 0, 0, 0, 0,
                    crc, "");
        }
        String info = op == null ? "" : op.rfcName();
        if (tagged) {
            return new FpduRecord(stream, dir, frame, endFrame, offset, len, control, true, false,
                    TaggedHeader.stag(u, at) & 0xFFFFFFFFL, TaggedHeader.taggedOffset(u, at), 0, 0, 0, 0, crc, info);
        }
        long qn = UntaggedHeader.queueNumber(u, at);
        long msn = UntaggedHeader.msn(u, at);
        long mo = UntaggedHeader.messageOffset(u, at);
        long rsvdUlp = UntaggedHeader.rsvdUlp(u, at) & 0xFFFFFFFFL;
        if (op != null && !op.tagged()) {
            if (op.queueNumber() != qn) {
                report(Check.MODEL_MISMATCH, frame, offset, op.rfcName() + " on QN " + qn + ", expected QN " + op.queueNumber());
            }
            if (!op.carriesInvalidateStag() && rsvdUlp != 0) {
                report(Check.RDMAP_RESERVED, frame, offset, String.format("%s with RsvdULP 0x%08x", op.rfcName(), rsvdUlp));
            }
            info = rdmapInfo(op, u, at + UntaggedHeader.HEADER_LENGTH, len - UntaggedHeader.HEADER_LENGTH, control,
                    qn, msn, mo, frame, offset, rsvdUlp);
        }
        sequence(qn, msn, mo, DdpControl.isLast(control), len - UntaggedHeader.HEADER_LENGTH, frame, offset);
        return new FpduRecord(stream, dir, frame, endFrame, offset, len, control, false, true, 0, 0, qn, msn, mo,
                rsvdUlp, crc, info);
    }

    /** RFC 5041 section 5.3: per-queue MSN (from 1, +1 per message) and MO (from 0, contiguous). */
    private void sequence(long qn, long msn, long mo, boolean last, int payload, long frame, long offset) {
        long[] q = queues.get(qn);
        if (q != null && q[2] == 1) {  // a message is open on this queue
            if (msn != q[0]) {
                report(Check.MSN_SEQUENCE, frame, offset, "QN " + qn + ": MSN " + msn + " while message MSN " + q[0]
                        + " is not complete (no L)");
            } else if (mo != q[1]) {
                report(Check.MO_SEQUENCE, frame, offset, "QN " + qn + " MSN " + msn + ": MO " + mo + ", expected " + q[1]);
            }
        } else {
            long expected = q == null ? 1 : (q[0] + 1) & 0xFFFFFFFFL;
            if (msn != expected) {
                report(Check.MSN_SEQUENCE, frame, offset, "QN " + qn + ": MSN " + msn + ", expected " + expected
                        + (q != null && msn == q[0] ? " (MSN repeated)" : q != null ? " (gap)" : " (first message)"));
            }
            if (mo != 0) {
                report(Check.MO_SEQUENCE, frame, offset, "QN " + qn + " MSN " + msn + ": first segment with MO " + mo);
            }
        }
        queues.put(qn, new long[] {msn, mo + payload, last ? 0 : 1});
    }

    private String rdmapInfo(RdmapOpcode op, ByteBuf u, int at, int rest, int control, long qn, long msn, long mo,
                             long frame, long offset, long rsvdUlp) {
        switch (op) {
            case RDMA_READ_REQUEST: {
                if (rest != ReadRequestHeader.LENGTH) {
                    report(Check.RDMAP_LENGTH, frame, offset, "RDMA Read Request with " + rest
                            + " bytes after the DDP header, expected " + ReadRequestHeader.LENGTH);
                    return op.rfcName();
                }
                return String.format("RDMA Read Request sink 0x%08x@0x%016x size %d src 0x%08x@0x%016x",
                        ReadRequestHeader.sinkStag(u, at), ReadRequestHeader.sinkTaggedOffset(u, at),
                        ReadRequestHeader.readSize(u, at), ReadRequestHeader.srcStag(u, at),
                        ReadRequestHeader.srcTaggedOffset(u, at));
            }
            case TERMINATE:
                terminatedAt = frame;
                if (!DdpControl.isLast(control) || msn != 1 || mo != 0) {
                    report(Check.TERMINATE_HEADER, frame, offset, "Terminate with L=" + (DdpControl.isLast(control) ? 1 : 0)
                            + " MSN " + msn + " MO " + mo);
                }
                return TerminateDescriber.describe(u, at, rest, terminates,
                        d -> report(Check.TERMINATE_HEADER, frame, offset, d));
            case IMMEDIATE_DATA:
            case IMMEDIATE_DATA_WITH_SE:
                return fixed(op, rest, ImmediateDataHeader.LENGTH, frame, offset)
                        ? String.format("%s 0x%016x", op.rfcName(), ImmediateDataHeader.immediateData(u, at)) : op.rfcName();
            case ATOMIC_REQUEST:
                return fixed(op, rest, AtomicRequestHeader.LENGTH, frame, offset)
                        ? String.format("%s op %d id %d", op.rfcName(), AtomicRequestHeader.atomicOperation(u, at),
                        AtomicRequestHeader.requestId(u, at)) : op.rfcName();
            case ATOMIC_RESPONSE:
                return fixed(op, rest, AtomicResponseHeader.LENGTH, frame, offset)
                        ? String.format("%s id %d", op.rfcName(), AtomicResponseHeader.requestId(u, at)) : op.rfcName();
            case SEND_WITH_INVALIDATE:
            case SEND_WITH_SE_AND_INVALIDATE:
                return String.format("%s inval 0x%08x", op.rfcName(), rsvdUlp);
            default:
                return op.rfcName();
        }
    }

    private boolean fixed(RdmapOpcode op, int rest, int need, long frame, long offset) {
        if (rest != need) {
            report(Check.RDMAP_LENGTH, frame, offset, op.rfcName() + " with " + rest
                    + " bytes after the DDP header, expected " + need);
            return false;
        }
        return true;
    }
}
