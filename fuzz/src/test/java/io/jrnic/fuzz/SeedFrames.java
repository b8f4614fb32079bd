package io.jrnic.fuzz;

import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.Outcome;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Protocol units for {@link SeedCorpus}, as octets, built with the real encoders and negotiators: MPA Requests and a
 * real responder's Replies, FPDUs, untagged and tagged RDMAP messages, Terminates (and siw's layout of one).
 */
final class SeedFrames {
    private SeedFrames() {
    }

    /** The MPA Request a real initiator with {@code options} sends. */
    static byte[] requestOf(MpaOptions options) {
        ByteBuf b = new MpaInitiator(options).request();
        try {
            return bytes(b);
        } finally {
            b.release();
        }
    }

    /** The Reply a real responder with {@code responderOptions} gives to a real initiator's Request, accepting or rejecting. */
    static byte[] replyTo(MpaOptions initiatorOptions, MpaOptions responderOptions, boolean reject) {
        MpaResponder responder = new MpaResponder(responderOptions);
        ByteBuf request = new MpaInitiator(initiatorOptions).request();
        try {
            Outcome o = responder.feed(request);
            if (o.status() != Outcome.Status.REQUEST_RECEIVED) {
                throw new IllegalStateException("seed handshake: " + o);
            }
        } finally {
            request.release();
        }
        Outcome answer = reject ? responder.reject(ascii("busy")) : responder.accept();
        ByteBuf reply = answer.toSend();
        try {
            return bytes(reply);
        } finally {
            reply.release();
        }
    }

    /** One FPDU with a {@code length}-byte ULPDU starting at stream position {@code start}. */
    static byte[] fpduStream(boolean crc, boolean markers, long start, int length) {
        FpduEncoder enc = new FpduEncoder(crc, markers, start);
        byte[] ulpdu = new byte[length];
        for (int i = 0; i < length; i++) {
            ulpdu[i] = (byte) (i * 7 + 1);
        }
        ByteBuf src = Unpooled.wrappedBuffer(ulpdu);
        ByteBuf out = Unpooled.buffer();
        try {
            enc.encode(src, out);
            return bytes(out);
        } finally {
            src.release();
            out.release();
        }
    }

    /** siw's little-endian bitfield layout of the Terminate Control (see TerminateDecoder). */
    static byte[] siwLayout(byte[] ulpdu) {
        byte[] b = ulpdu.clone();
        int c = 18;
        b[c] = (byte) ((b[c] & 0xFF) >>> 4 | (b[c] & 0x0F) << 4);
        int f = b[c + 2] & 0xFF;
        b[c + 2] = (byte) (((f & 0x80) != 0 ? 1 : 0) | ((f & 0x40) != 0 ? 2 : 0) | ((f & 0x20) != 0 ? 4 : 0));
        return b;
    }

    /** {@code ulpdu} framed by {@code enc} (its stream position and CRC go on). */
    static byte[] fpdu(FpduEncoder enc, byte[] ulpdu) {
        ByteBuf src = Unpooled.wrappedBuffer(ulpdu);
        ByteBuf out = Unpooled.buffer();
        try {
            enc.encode(src, out);
            return bytes(out);
        } finally {
            src.release();
            out.release();
        }
    }

    /** An untagged RDMAP message (last segment): control, RsvdULP, QN, MSN, MO, then {@code rest} (RFC 5041 section 4.3). */
    static byte[] untagged(RdmapOpcode op, long qn, long msn, long mo, byte[] rest) {
        ByteBuf b = Unpooled.buffer();
        try {
            b.writeShort(RdmapControl.controlWord(op, true)).writeInt(0).writeInt((int) qn).writeInt((int) msn)
                    .writeInt((int) mo).writeBytes(rest);
            return bytes(b);
        } finally {
            b.release();
        }
    }

    /** A tagged RDMAP message (last segment): control, STag, TO, then {@code payload} (RFC 5041 section 4.2). */
    static byte[] tagged(RdmapOpcode op, int stag, long to, byte[] payload) {
        ByteBuf b = Unpooled.buffer();
        try {
            b.writeShort(RdmapControl.controlWord(op, true)).writeInt(stag).writeLong(to).writeBytes(payload);
            return bytes(b);
        } finally {
            b.release();
        }
    }

    /** The Terminate message {@code t} as its ULPDU (RFC 5040 section 4.8). */
    static byte[] terminate(Terminate t, long msn) {
        ByteBuf b = Unpooled.buffer();
        try {
            t.encode(b, msn);
            return bytes(b);
        } finally {
            b.release();
        }
    }

    /** The setup frame as the wire has it. */
    static byte[] encode(MpaSetupFrame f) {
        ByteBuf b = Unpooled.buffer();
        try {
            f.encode(b);
            return bytes(b);
        } finally {
            b.release();
        }
    }

    /** The readable octets of {@code b}, its indices left alone. */
    static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
