package io.jrnic.rdmap;

import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.mpa.IwarpError;
import io.netty.buffer.ByteBuf;

/**
 * Header checks of a received ULPDU, before placement, in Linux siw's order and then the RFC's
 * remaining rules. {@link #validate} returns the error to put in the Terminate, or null.
 * <ol>
 * <li>DDP first ({@link DdpControl#checkHeader}, RFC 5041 section 7.2): a ULPDU too short for the
 *     control word, DV not 1 (DDP tagged 0x04 / untagged 0x06; siw checks it), a ULPDU too short for
 *     the DDP header its T bit implies (DDP 0/0x00: DDP is the layer that cannot parse it).</li>
 * <li>RDMAP version (RV) not 1: RDMAP remote operation 0x05 (RFC 5040 section 7.2; siw).</li>
 * <li>Opcode undefined (0xC..0xF), or 0x8..0xB when RFC 7306 is not enabled: remote operation 0x06 (siw).</li>
 * <li>ULPDU shorter than the DDP header plus the opcode's fixed RDMAP header: remote operation 0xFF
 *     (the table has no closer code).</li>
 * <li>T flag not the opcode's buffer model (RFC 5040 section 5: e.g. Send must be untagged):
 *     remote operation 0x06. Strict extra: siw does not check it.</li>
 * <li>QN: above 3 is DDP untagged 0x01 invalid QN (RFC 5041 section 7.2); a defined QN that is not
 *     the opcode's queue (e.g. a Read Request on QN 0) is remote operation 0x06. Strict extra: siw
 *     checks neither.</li>
 * <li>A message that is its header alone (Read Request, RFC 5040 section 4.4; Immediate Data, Atomic
 *     Request and Response, RFC 7306 sections 8.1-8.2) with bytes beyond that header: remote
 *     operation 0xFF (RFC 5040 section 7.2 has no closer row; siw refuses such a Read Request too).</li>
 * </ol>
 * Reserved bits (DDP 0x3C00, RDMAP 0x0030, RsvdULP of untagged messages other than Send with
 * Invalidate) are sent as zero and not checked on receive (RFC 5041 section 4, RFC 5040 section 4):
 * a violation never causes a Terminate; it is reported in {@link #reservedBitsViolated()} for tools.
 * Reusable, not thread-safe; {@link #opcode()} and {@link #reservedBitsViolated()} describe the last call.
 */
public final class RdmapValidator {
    private final boolean rfc7306;
    private RdmapOpcode opcode;
    private boolean reservedBitsViolated;

    /** A validator accepting the RFC 7306 opcodes (Immediate Data, Atomics). */
    public RdmapValidator() {
        this(true);
    }

    /** @param rfc7306 false to treat opcodes 0x8..0xB as unexpected, as Linux siw does */
    public RdmapValidator(boolean rfc7306) {
        this.rfc7306 = rfc7306;
    }

    /**
     * Validates the DDP and RDMAP headers of the ULPDU at {@code offset} of {@code ulpduLength} bytes.
     *
     * @return null if the headers are acceptable, else the error for the Terminate
     */
    public IwarpError validate(ByteBuf buf, int offset, int ulpduLength) {
        opcode = null;
        reservedBitsViolated = false;
        DdpError ddp = DdpControl.checkHeader(buf, offset, ulpduLength);
        if (ddp != null) {
            return ddp;
        }
        int control = buf.getUnsignedShort(offset);
        boolean tagged = DdpControl.isTagged(control);
        if (RdmapControl.rdmapVersion(control) != RdmapControl.RDMAP_VERSION) {
            return RdmapError.INVALID_RDMAP_VERSION;
        }
        RdmapOpcode op = RdmapControl.opcode(control);
        if (op == null || (op.rfc7306() && !rfc7306)) {
            return RdmapError.UNEXPECTED_OPCODE;
        }
        int ddpLength = DdpControl.headerLength(control);
        if (ulpduLength < ddpLength + (op.tagged() == tagged ? op.extraHeaderLength() : 0)) {
            return RdmapError.OPERATION_UNSPECIFIED;
        }
        if (op.tagged() != tagged) {
            return RdmapError.UNEXPECTED_OPCODE;
        }
        reservedBitsViolated = DdpControl.reservedBits(control) != 0 || RdmapControl.reservedBits(control) != 0;
        if (!tagged) {
            long qn = UntaggedHeader.queueNumber(buf, offset);
            if (qn > RdmapOpcode.QN_ATOMIC_RESPONSE) {
                return DdpError.INVALID_QN;
            }
            if (qn != op.queueNumber()) {
                return RdmapError.UNEXPECTED_OPCODE;
            }
            if (!op.carriesInvalidateStag() && UntaggedHeader.rsvdUlp(buf, offset) != 0) {
                reservedBitsViolated = true;
            }
        }
        if (!op.carriesPayload() && op != RdmapOpcode.TERMINATE && ulpduLength > op.headerLength()) {
            return RdmapError.OPERATION_UNSPECIFIED;
        }
        opcode = op;
        return null;
    }

    /** The opcode of the last ULPDU that validated, else null. */
    public RdmapOpcode opcode() {
        return opcode;
    }

    /** True if the last validated ULPDU had a non-zero reserved bit (reported, never terminated). */
    public boolean reservedBitsViolated() {
        return reservedBitsViolated;
    }
}
