package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.TaggedHeader;
import io.jrnic.ddp.UntaggedHeader;
import io.jrnic.rdmap.MalformedTerminateException;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.rdmap.Terminate;
import io.jrnic.rdmap.TerminateDecoder;
import io.jrnic.rdmap.TerminateHeader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;

/** Terminate messages (RFC 5040 section 4.8): TerminateDecoder in both modes, encode/decode. */
class TerminateFuzzTest {
    /**
     * Any bytes, both modes, both entry points. Input: control byte (bit 0 SIW_QUIRK, bit 1 from
     * the Terminate Control word instead of the DDP header, bits 2..4 offset in the buffer, bit 5
     * a fuzzer-chosen length argument instead of the true one), the length argument (u32, only
     * with bit 5), then the bytes. Properties: a Terminate or MalformedTerminateException, never
     * another exception; in STRICT mode a decoded Terminate fills the ULPDU exactly and encodes
     * back to the input bytes with only the fields the decoder ignores (RsvdULP, reserved bits of
     * the control words, MSN passed through) normalised.
     */
    @FuzzTest(maxDuration = "60s")
    void decode(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int ctrl = in.u8();
        TerminateDecoder.Mode mode = (ctrl & 1) != 0 ? TerminateDecoder.Mode.SIW_QUIRK : TerminateDecoder.Mode.STRICT;
        boolean fromControl = (ctrl & 2) != 0;
        int offset = (ctrl >>> 2) & 7;
        boolean ownLength = (ctrl & 32) != 0;
        int lengthArg = (int) in.u32();
        byte[] bytes = in.rest();
        int length = ownLength ? lengthArg : bytes.length;

        byte[] all = new byte[offset + bytes.length];
        System.arraycopy(bytes, 0, all, offset, bytes.length);
        ByteBuf buf = Unpooled.wrappedBuffer(all);
        Terminate t;
        try {
            t = fromControl ? TerminateDecoder.decodeTerminateHeader(buf, offset, length, mode)
                    : TerminateDecoder.decode(buf, offset, length, mode);
        } catch (MalformedTerminateException e) {
            return;
        } finally {
            buf.release();
        }
        assertNotNull(t);
        assertTrue(length <= bytes.length, "decoded past the end of the buffer");
        if (mode == TerminateDecoder.Mode.SIW_QUIRK) {
            return;
        }
        int prefix = fromControl ? UntaggedHeader.HEADER_LENGTH : 0;
        assertEquals(length + prefix, t.encodedLength(), "attachments fill the ULPDU exactly");
        byte[] expected = new byte[t.encodedLength()];
        System.arraycopy(bytes, 0, expected, prefix, length);
        long msn = 0;
        if (!fromControl) {
            ByteBuf b = Unpooled.wrappedBuffer(bytes);
            try {
                msn = UntaggedHeader.msn(b, 0);
            } finally {
                b.release();
            }
        }
        normalise(expected, msn);
        ByteBuf out = Unpooled.buffer();
        try {
            assertEquals(expected.length, t.encode(out, msn));
            byte[] got = new byte[out.readableBytes()];
            out.readBytes(got);
            if (fromControl) {
                Arrays.fill(got, 0, prefix, (byte) 0);
                Arrays.fill(expected, 0, prefix, (byte) 0);
            }
            assertArrayEquals(expected, got, "re-encoding the decoded Terminate");
        } finally {
            out.release();
        }
    }

    /** The fields the STRICT decoder ignores, as the encoder writes them. */
    private static void normalise(byte[] ulpdu, long msn) {
        int control = RdmapControl.controlWord(RdmapOpcode.TERMINATE, true);
        ulpdu[0] = (byte) (control >>> 8);
        ulpdu[1] = (byte) control;
        Arrays.fill(ulpdu, UntaggedHeader.RSVD_ULP_OFFSET, UntaggedHeader.QN_OFFSET, (byte) 0);
        int c = UntaggedHeader.HEADER_LENGTH;
        ulpdu[c + TerminateHeader.FLAGS_OFFSET] &= (byte) ~TerminateHeader.FLAGS_RESERVED_MASK;
        ulpdu[c + 3] = 0;
    }

    /**
     * Encode then decode for fuzzer-chosen fields. Input: layer/etype byte, code, flags byte (bit 0
     * M, bit 1 D, bit 2 tagged terminated segment, bit 3 R, bits 4..6 offset), DDP segment length
     * (u16), MSN (u32), the terminated DDP header bytes, the 28 RDMAP header bytes. Properties:
     * encode writes encodedLength() bytes; both decode entry points give the Terminate back in
     * STRICT mode; SIW_QUIRK mode gives a Terminate or MalformedTerminateException.
     */
    @FuzzTest(maxDuration = "60s")
    void roundTrip(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int le = in.u8();
        int code = in.u8();
        int flags = in.u8();
        int segmentLength = in.u16();
        long msn = in.u32();
        boolean d = (flags & 2) != 0;
        boolean tagged = (flags & 4) != 0;
        byte[] ddp = null;
        if (d) {
            ddp = in.bytesPadded(tagged ? TaggedHeader.HEADER_LENGTH : UntaggedHeader.HEADER_LENGTH);
            ddp[0] = (byte) (tagged ? ddp[0] | 0x80 : ddp[0] & 0x7F);
        }
        byte[] rdmap = (flags & 8) != 0 ? in.bytesPadded(TerminateHeader.TERMINATED_RDMAP_HEADER_LENGTH) : null;
        int offset = (flags >>> 4) & 7;
        Terminate t = new Terminate(le >>> 4, le & 0xF, code, (flags & 1) != 0, d ? segmentLength : 0, ddp, rdmap);
        assertNotNull(t.error(), "error() is never null");

        ByteBuf buf = Unpooled.buffer();
        try {
            buf.writeZero(offset);
            int n = t.encode(buf, msn);
            assertEquals(t.encodedLength(), n);
            assertEquals(offset + n, buf.writerIndex());
            assertEquals(t, TerminateDecoder.decode(buf, offset, n, TerminateDecoder.Mode.STRICT));
            assertEquals(t, TerminateDecoder.decodeTerminateHeader(buf, offset + UntaggedHeader.HEADER_LENGTH,
                    n - UntaggedHeader.HEADER_LENGTH, TerminateDecoder.Mode.STRICT));
            assertEquals(msn, UntaggedHeader.msn(buf, offset));
            assertEquals(DdpControl.headerLength(buf.getUnsignedShort(offset)), UntaggedHeader.HEADER_LENGTH);
            try {
                assertNotNull(TerminateDecoder.decode(buf, offset, n, TerminateDecoder.Mode.SIW_QUIRK));
            } catch (MalformedTerminateException expected) {
                // the RFC layout read as siw's may not fit: a documented outcome
            }
        } finally {
            buf.release();
        }
    }
}
