package io.jrnic.interop.decode;

import io.jrnic.mpa.IwarpError;
import io.jrnic.rdmap.MalformedTerminateException;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.rdmap.TerminateHeader;
import io.netty.buffer.ByteBuf;
import java.util.function.Consumer;

/**
 * Describes and checks a Terminate message body (RFC 5040 section 4.8) for the decoder: parsing is
 * {@link TerminateDecoder}'s (RFC layout, siw's, or either: {@code --terminates RFC|SIW|EITHER}); this class adds the
 * checker's own findings (unknown layer, reserved bits set, attachments that do not fit).
 */
final class TerminateDescriber {
    private static final String SIW_HINT = " (a Linux siw Terminate? try --terminates SIW or EITHER)";

    private TerminateDescriber() {
    }

    static String describe(ByteBuf u, int at, int rest, TerminateDecoder.Mode mode, Consumer<String> problem) {
        Terminate t;
        boolean siwLayout;
        try {
            TerminateDecoder.Match m = TerminateDecoder.matchTerminateHeader(u, at, rest, mode);
            t = m.terminate();
            siwLayout = m.layout() == TerminateDecoder.Mode.SIW_QUIRK;
        } catch (MalformedTerminateException e) {
            problem.accept("malformed Terminate: " + e.getMessage() + (mode == TerminateDecoder.Mode.STRICT ? SIW_HINT : ""));
            return "Terminate";
        }
        if (t.layer() > 2) {
            problem.accept("Terminate layer " + t.layer() + " is not RDMAP(0), DDP(1) or LLP(2)"
                    + (mode == TerminateDecoder.Mode.STRICT ? SIW_HINT : ""));
        }
        int b2 = u.getUnsignedByte(at + TerminateHeader.FLAGS_OFFSET);
        int b3 = u.getUnsignedByte(at + TerminateHeader.FLAGS_OFFSET + 1);
        int reserved = (b2 & (siwLayout ? 0xF8 : TerminateHeader.FLAGS_RESERVED_MASK)) | b3;
        if (reserved != 0) {
            problem.accept(String.format("Terminate Control reserved bits set (bytes 2-3: 0x%02x%02x)", b2, b3)
                    + (mode == TerminateDecoder.Mode.STRICT ? SIW_HINT : ""));
        }
        IwarpError e = t.error();
        String layer = e.layer() != null ? e.layer().name() : "layer " + t.layer();
        return String.format("Terminate %s etype %d code 0x%02x (%s)%s%s%s%s", layer, t.errorType(), t.errorCode(),
                e.description(), t.m() ? " M" : "", t.d() ? " D" : "", t.r() ? " R" : "",
                siwLayout ? " (siw layout)" : "");
    }
}
