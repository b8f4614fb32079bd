package io.jrnic.interop.decode;

import io.jrnic.ddp.DdpControl;
import io.jrnic.rdmap.TerminateHeader;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * Describes and checks a Terminate message body (RFC 5040 section 4.8), in the RFC layout or,
 * opt-in, in Linux siw's layout (Layer in the low nibble of byte 0, EType in the high nibble;
 * M/D/R in bits 0x01/0x02/0x04 of byte 2; see siw-notes). Local helper of the decoder: the
 * rdmap module's {@link TerminateHeader} covers the RFC layout only.
 */
final class TerminateDescriber {
    private static final String[] LAYERS = {"RDMAP", "DDP", "LLP"};

    private TerminateDescriber() {
    }

    static String describe(ByteBuf u, int at, int rest, boolean siwLayout, Consumer<String> problem) {
        if (rest < TerminateHeader.CONTROL_LENGTH) {
            problem.accept("Terminate of " + rest + " bytes has no Terminate Control word");
            return "Terminate";
        }
        int b0 = u.getUnsignedByte(at + TerminateHeader.LAYER_ETYPE_OFFSET);
        int code = u.getUnsignedByte(at + TerminateHeader.ERROR_CODE_OFFSET);
        int b2 = u.getUnsignedByte(at + TerminateHeader.FLAGS_OFFSET);
        int b3 = u.getUnsignedByte(at + TerminateHeader.FLAGS_OFFSET + 1);
        int layer = siwLayout ? b0 & 0x0F : b0 >> 4;
        int etype = siwLayout ? b0 >> 4 : b0 & 0x0F;
        boolean m = (b2 & (siwLayout ? 0x01 : TerminateHeader.FLAG_M)) != 0;
        boolean d = (b2 & (siwLayout ? 0x02 : TerminateHeader.FLAG_D)) != 0;
        boolean r = (b2 & (siwLayout ? 0x04 : TerminateHeader.FLAG_R)) != 0;
        int reserved = (b2 & (siwLayout ? 0xF8 : TerminateHeader.FLAGS_RESERVED_MASK)) | b3;
        if (layer > 2) {
            problem.accept("Terminate layer " + layer + " is not RDMAP(0), DDP(1) or LLP(2)"
                    + (siwLayout ? "" : " (a Linux siw Terminate? try --siw-quirks)"));
        }
        if (reserved != 0) {
            problem.accept(String.format("Terminate Control reserved bits set (bytes 2-3: 0x%02x%02x)", b2, b3)
                    + (siwLayout ? "" : " (a Linux siw Terminate? try --siw-quirks)"));
        }
        int need = TerminateHeader.CONTROL_LENGTH;
        if (d) {
            if (rest >= TerminateHeader.TERMINATED_DDP_HEADER_OFFSET + DdpControl.LENGTH) {
                int c = u.getUnsignedShort(at + TerminateHeader.TERMINATED_DDP_HEADER_OFFSET);
                need = TerminateHeader.TERMINATED_DDP_HEADER_OFFSET + DdpControl.headerLength(c);
            } else {
                need = TerminateHeader.TERMINATED_DDP_HEADER_OFFSET + DdpControl.LENGTH;
            }
        }
        if (r) {
            need += TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH;
        }
        if (rest < need) {
            problem.accept("Terminate with " + (d ? "D " : "") + (r ? "R " : "") + "needs " + need
                    + " bytes after the DDP header, has " + rest);
        }
        return String.format("Terminate %s etype %d code 0x%02x%s%s%s%s", layer <= 2 ? LAYERS[layer] : "layer " + layer,
                etype, code, m ? " M" : "", d ? " D" : "", r ? " R" : "", siwLayout ? " (siw layout)" : "");
    }
}
