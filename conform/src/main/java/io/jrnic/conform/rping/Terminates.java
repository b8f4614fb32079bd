package io.jrnic.conform.rping;

import io.jrnic.conform.Observation;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.rdmap.MalformedTerminateException;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.time.Duration;

/**
 * Reads the target's reaction after an injection (RFC 5040 section 4.8 Terminates in either control-word
 * layout, closes, resets, silence).
 */
public final class Terminates {
    private Terminates() {
    }

    /** Decodes a Terminate ULPDU, RFC layout first, then siw's; a malformed one is reported as such. */
    public static Observation decode(byte[] ulpdu) {
        ByteBuf b = io.netty.buffer.Unpooled.wrappedBuffer(ulpdu);
        try {
            TerminateDecoder.Match m = TerminateDecoder.decodeMatch(b, 0, ulpdu.length, TerminateDecoder.Mode.EITHER);
            Terminate t = m.terminate();
            String layout = m.layout() == TerminateDecoder.Mode.SIW_QUIRK ? "SIW" : "RFC";
            String attached = (t.ddpHeader() != null ? " D" : "") + (t.rdmapHeader() != null ? " R" : "")
                    + (t.m() ? " M" : "");
            int[] other = null;
            try {
                Terminate o = TerminateDecoder.decode(b, 0, ulpdu.length, m.layout() == TerminateDecoder.Mode.SIW_QUIRK
                        ? TerminateDecoder.Mode.STRICT : TerminateDecoder.Mode.SIW_QUIRK);
                other = new int[] {o.layer(), o.errorType(), o.errorCode()};
            } catch (MalformedTerminateException | IllegalArgumentException notInTheOtherLayout) {
                other = null;
            }
            return new Observation(Observation.Kind.TERMINATE, t.layer(), t.errorType(), t.errorCode(), layout,
                    attached.isEmpty() ? "no headers attached" : "flags" + attached, other);
        } catch (MalformedTerminateException e) {
            return Observation.terminate(-1, -1, -1, "MALFORMED", e.getMessage());
        }
    }

    /**
     * Waits up to {@code timeout} for the target's reaction: the first Terminate, a close or reset, or any
     * other message (the target carried on: {@code PROCEEDED}); silence is {@code SILENT}.
     */
    public static Observation observe(Session s, Duration timeout) throws IOException {
        Session.Event e = s.next(timeout);
        return switch (e.kind()) {
            case CLOSED -> Observation.of(Observation.Kind.CLOSED, "FIN without a Terminate");
            case RESET -> Observation.of(Observation.Kind.RESET, "RST without a Terminate");
            case TIMEOUT -> Observation.of(Observation.Kind.SILENT, "nothing for " + timeout.toMillis() + " ms");
            case MESSAGE -> Ulpdus.is(e.ulpdu(), RdmapOpcode.TERMINATE) ? decode(e.ulpdu())
                    : Observation.of(Observation.Kind.PROCEEDED, "the target sent " + describe(e.ulpdu()));
        };
    }

    /** The opcode and model of a ULPDU, for reports. */
    public static String describe(byte[] ulpdu) {
        if (ulpdu.length < 2) {
            return "a " + ulpdu.length + "-byte ULPDU";
        }
        int c = ((ulpdu[0] & 0xFF) << 8) | (ulpdu[1] & 0xFF);
        RdmapOpcode op = RdmapOpcode.fromCode(c & 0xF);
        return (op == null ? "opcode 0x" + Integer.toHexString(c & 0xF) : op.rfcName()) + " (" + ulpdu.length + " bytes)";
    }
}
