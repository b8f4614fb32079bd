package io.jrnic.interop.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.interop.pcap.TcpConversationWriter;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each check, provoked by a crafted capture (exact TCP segmentation via TcpConversationWriter). */
class ViolationsTest {
    @TempDir
    Path tmp;

    private static final InetSocketAddress I = new InetSocketAddress("192.168.7.1", 50000);
    private static final InetSocketAddress R = new InetSocketAddress("192.168.7.2", 7174);

    /** Request, Reply, one FPDU per segment i2r, then r2i (each possibly edited before framing). */
    private RecordingSink run(boolean crc, byte[] request, byte[] reply, SyntheticStream i2r, SyntheticStream r2i,
                              UnaryOperator<byte[]> editI2r) throws IOException {
        Path f = tmp.resolve("c.pcap");
        try (OutputStream o = Files.newOutputStream(f);
             TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.handshake();
            w.send(true, request);
            w.send(false, reply);
            byte[] a = editI2r.apply(i2r.bytes());
            for (byte[] seg : Segmenter.perFpdu(a, i2r.fpduStarts)) {
                w.send(true, seg);
            }
            if (r2i != null) {
                for (byte[] seg : Segmenter.perFpdu(r2i.bytes(), r2i.fpduStarts)) {
                    w.send(false, seg);
                }
                r2i.release();
            }
        }
        i2r.release();
        return RecordingSink.decode(f, DecodeOptions.defaults());
    }

    private RecordingSink run(boolean crc, SyntheticStream i2r) throws IOException {
        return run(crc, req(crc), rep(crc), i2r, null, UnaryOperator.identity());
    }

    private static byte[] req(boolean crc) {
        return SyntheticStream.setupFrame(MpaSetupFrame.Kind.REQUEST, crc, false, 0);
    }

    private static byte[] rep(boolean crc) {
        return SyntheticStream.setupFrame(MpaSetupFrame.Kind.REPLY, crc, false, 0);
    }

    private static SyntheticStream s(boolean crc) {
        return new SyntheticStream(0, "i2r", crc, false);
    }

    private static ByteBuf untagged(int control, int qn, int msn, int mo, int total) {
        ByteBuf u = Unpooled.buffer();
        u.writeShort(control).writeInt(0).writeInt(qn).writeInt(msn).writeInt(mo);
        u.writeZero(Math.max(0, total - u.readableBytes()));
        u.writerIndex(total);
        return u;
    }

    private static int send(boolean last) {
        return RdmapControl.controlWord(RdmapOpcode.SEND, last);
    }

    @Test
    void cleanConversationHasNoViolations() throws IOException {
        RecordingSink r = run(true, s(true).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 10)
                .untagged(RdmapOpcode.SEND, true, 2, 0, 0, 10));
        assertEquals(List.of(), r.violations);
        assertEquals(2, r.fpdus.size());
    }

    @Test
    void msnGapAndRepeat() throws IOException {
        RecordingSink r = run(false, s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4)
                .untagged(RdmapOpcode.SEND, true, 3, 0, 0, 4).untagged(RdmapOpcode.SEND, true, 3, 0, 0, 4));
        assertEquals(List.of(Check.MSN_SEQUENCE, Check.MSN_SEQUENCE), r.checks());
        assertTrue(r.violations.get(0).detail().contains("MSN 3, expected 2 (gap)"), r.violations.toString());
        assertTrue(r.violations.get(1).detail().contains("(MSN repeated)"), r.violations.toString());
        assertEquals(Direction.I2R, r.violations.get(0).dir());
    }

    @Test
    void moMustContinueWithinAMessage() throws IOException {
        RecordingSink r = run(false, s(false).untagged(RdmapOpcode.SEND, false, 1, 0, 0, 100)
                .untagged(RdmapOpcode.SEND, true, 1, 50, 0, 4));
        assertEquals(List.of(Check.MO_SEQUENCE), r.checks());
        assertTrue(r.violations.get(0).detail().endsWith("MO 50, expected 100"), r.violations.toString());
    }

    @Test
    void badCrcIsReportedAndTheFpduStillDecoded() throws IOException {
        SyntheticStream st = s(true).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 40);
        RecordingSink r = run(true, req(true), rep(false), st, null, b -> {
            b[30] ^= 1;
            return b;
        });
        assertEquals(List.of(Check.CRC_BAD), r.checks());
        assertEquals(CrcStatus.BAD, r.fpdus.get(0).crc());
    }

    @Test
    void reservedBitsInDdpRdmapAndSetupFlags() throws IOException {
        RecordingSink r = run(false, s(false).raw(untagged(send(true) | 0x0400, 0, 1, 0, 18))
                .raw(untagged(send(true) | 0x0010, 0, 2, 0, 18)));
        assertEquals(List.of(Check.DDP_RESERVED, Check.RDMAP_RESERVED), r.checks());
        RecordingSink f = run(false, SyntheticStream.setupFrame(MpaSetupFrame.Kind.REQUEST, false, false, 0x01), rep(false),
                s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4), null, UnaryOperator.identity());
        assertEquals(List.of(Check.SETUP_RESERVED_FLAGS), f.checks());
    }

    @Test
    void versionsAndOpcode() throws IOException {
        RecordingSink r = run(false, s(false)
                .raw(untagged((send(true) & ~0x0300) | 0x0200, 0, 1, 0, 18))     // DV 2
                .raw(untagged((send(true) & ~0x00C0), 0, 2, 0, 18))              // RV 0
                .raw(untagged((send(true) & ~0x000F) | 0xC, 0, 3, 0, 18)));      // opcode 0xC
        assertEquals(List.of(Check.DDP_VERSION, Check.RDMAP_VERSION, Check.OPCODE_INVALID), r.checks());
    }

    @Test
    void taggedFlagMustMatchTheOpcode() throws IOException {
        ByteBuf write = untagged(RdmapControl.controlWord(RdmapOpcode.RDMA_WRITE, true) & ~0x8000, 0, 1, 0, 18);
        ByteBuf sendTagged = Unpooled.buffer().writeShort(send(true) | 0x8000).writeInt(5).writeLong(0);
        RecordingSink r = run(false, s(false).raw(write).raw(sendTagged));
        assertEquals(List.of(Check.MODEL_MISMATCH, Check.MODEL_MISMATCH), r.checks());
    }

    @Test
    void invalidLengths() throws IOException {
        ByteBuf shortRr = untagged(RdmapControl.controlWord(RdmapOpcode.RDMA_READ_REQUEST, true), 1, 1, 0, 18 + 20);
        RecordingSink r = run(false, s(false).raw(untagged(send(true), 0, 1, 0, 10)).raw(shortRr));
        assertEquals(List.of(Check.ULPDU_TOO_SHORT, Check.RDMAP_LENGTH), r.checks());
        assertEquals("", CsvFormat.row(r.fpdus.get(0)).split(",", -1)[6], "no STag for a header-less ULPDU");
    }

    @Test
    void padMustBeZero() throws IOException {
        SyntheticStream st = s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 1);  // 2 + 19 -> 3 pad bytes
        RecordingSink r = run(false, req(false), rep(false), st, null, b -> {
            b[2 + 19 + 1] = 0x5A;
            return b;
        });
        assertEquals(List.of(Check.PAD_NOT_ZERO), r.checks());
        assertEquals("PAD 005a00 at stream offset 21", r.violations.get(0).detail(), "where the decoder found the pad");
    }

    @Test
    void setupFrameOverThePrivateDataCapIsInvalid() throws IOException {
        ByteBuf b = Unpooled.buffer();
        MpaSetupFrame.builder(MpaSetupFrame.Kind.REQUEST).revision(2).enhanced(true).v2Words(io.jrnic.mpa.MpaV2Words.of(1, 1))
                .privateData(new byte[100]).build().encode(b);
        byte[] req = io.netty.buffer.ByteBufUtil.getBytes(b);
        b.release();
        Path f = tmp.resolve("pd.pcap");
        try (OutputStream o = Files.newOutputStream(f); TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.handshake();
            w.send(true, req);
            w.send(false, rep(false));
        }
        assertEquals(List.of(), RecordingSink.decode(f, DecodeOptions.defaults()).checks());
        RecordingSink capped = RecordingSink.decode(f, new DecodeOptions(false, 64));
        assertEquals(List.of(Check.SETUP_INVALID), capped.checks());
        assertTrue(capped.violations.get(0).detail().contains("PD_Length 104"), capped.violations.toString());
    }

    @Test
    void fpduAfterARejectingReply() throws IOException {
        RecordingSink r = run(false, req(false), SyntheticStream.setupFrame(MpaSetupFrame.Kind.REPLY, false, true, 0),
                s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4), null, UnaryOperator.identity());
        assertEquals(List.of(Check.FPDU_AFTER_REJECT), r.checks());
    }

    @Test
    void terminateRulesAndNothingAfterIt() throws IOException {
        SyntheticStream st = s(false).terminate(1, 2, 1).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4);
        ByteBuf badTerm = untagged(RdmapControl.controlWord(RdmapOpcode.TERMINATE, false), 2, 1, 0, 18 + 4);  // L=0
        RecordingSink r = run(false, st);
        assertEquals(List.of(Check.FPDU_AFTER_TERMINATE), r.checks());
        assertEquals("Terminate DDP etype 2 code 0x01 (invalid QN)", r.fpdus.get(0).info());
        RecordingSink t = run(false, s(false).raw(badTerm));
        assertEquals(List.of(Check.TERMINATE_HEADER), t.checks());
    }

    @Test
    void siwTerminateLayoutIsDecodedOnlyOnRequest() throws IOException {
        ByteBuf term = untagged(RdmapControl.controlWord(RdmapOpcode.TERMINATE, true), 2, 1, 0, 18);
        term.writeByte(0x21).writeByte(0x01).writeByte(0x01).writeByte(0);  // siw: DDP untagged 0x01, M set
        Path f = tmp.resolve("siw-term.pcap");
        SyntheticStream st = s(false).raw(term);
        try (OutputStream o = Files.newOutputStream(f); TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.handshake();
            w.send(true, req(false));
            w.send(false, rep(false));
            w.send(true, st.bytes());
        }
        st.release();
        RecordingSink rfc = RecordingSink.decode(f, DecodeOptions.defaults());
        assertEquals(List.of(Check.TERMINATE_HEADER), rfc.checks(), "siw's flag bit is a reserved bit in RFC layout");
        assertEquals("Terminate LLP etype 1 code 0x01 (unknown error)", rfc.fpdus.get(0).info());
        RecordingSink siw = RecordingSink.decode(f, new DecodeOptions(true, 512));
        assertEquals(List.of(), siw.violations);
        assertEquals("Terminate DDP etype 2 code 0x01 (invalid QN) M (siw layout)", siw.fpdus.get(0).info());
        RecordingSink either = RecordingSink.decode(f, new DecodeOptions(io.jrnic.rdmap.TerminateDecoder.Mode.EITHER, 512));
        assertEquals(List.of(), either.violations, "EITHER: the siw reading gives a known error, the RFC one does not");
        assertEquals("Terminate DDP etype 2 code 0x01 (invalid QN) M (siw layout)", either.fpdus.get(0).info());
    }

    @Test
    void timingRules() throws IOException {
        SyntheticStream a = s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4);
        SyntheticStream b = new SyntheticStream(0, "r2i", false, false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4);
        Path f = tmp.resolve("timing.pcap");
        try (OutputStream o = Files.newOutputStream(f); TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.handshake();
            byte[] req = req(false);
            byte[] fp = a.bytes();
            byte[] both = new byte[req.length + fp.length];
            System.arraycopy(req, 0, both, 0, req.length);
            System.arraycopy(fp, 0, both, req.length, fp.length);
            w.send(true, both);                  // FPDU pipelined behind the Request, before the Reply
            w.send(false, rep(false));
            w.send(false, b.bytes());
        }
        a.release();
        b.release();
        RecordingSink r = RecordingSink.decode(f, DecodeOptions.defaults());
        assertEquals(List.of(Check.SETUP_PIPELINED, Check.FPDU_BEFORE_REPLY), r.checks());
        assertEquals(2, r.fpdus.size(), "the pipelined FPDU is still decoded");

        Path g = tmp.resolve("responder-first.pcap");
        SyntheticStream c = new SyntheticStream(0, "r2i", false, false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 4);
        try (OutputStream o = Files.newOutputStream(g); TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.handshake();
            w.send(true, req(false));
            w.send(false, rep(false));
            w.send(false, c.bytes());
        }
        c.release();
        assertEquals(List.of(Check.RESPONDER_FIRST), RecordingSink.decode(g, DecodeOptions.defaults()).checks());
    }

    @Test
    void reorderedAndRetransmittedSegmentsDecodeInStreamOrder() throws IOException {
        SyntheticStream a = s(true).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 30)
                .untagged(RdmapOpcode.SEND, true, 2, 0, 0, 30).untagged(RdmapOpcode.SEND, true, 3, 0, 0, 30);
        List<byte[]> seg = Segmenter.perFpdu(a.bytes(), a.fpduStarts);
        Path f = tmp.resolve("reorder.pcap");
        try (OutputStream o = Files.newOutputStream(f); TcpConversationWriter w = new TcpConversationWriter(o, I, R)) {
            w.isn(0xFFFFFF00L, 5).handshake();  // the initiator's sequence numbers wrap
            w.send(true, req(true));
            w.send(false, rep(true));
            long base = w.streamOffset(true);
            w.sendAt(true, base + seg.get(0).length, seg.get(1));   // second FPDU first
            w.send(true, seg.get(0));
            w.skip(true, seg.get(1).length);
            w.sendAt(true, base, seg.get(0));                        // retransmission
            w.send(true, seg.get(2));
        }
        a.release();
        RecordingSink r = RecordingSink.decode(f, DecodeOptions.defaults());
        assertEquals(List.of(), r.violations);
        assertEquals(List.of(1L, 2L, 3L), r.fpdus.stream().map(FpduRecord::msn).toList());
    }

    @Test
    void captureEndingInsideAnFpduIsANoteOnly() throws IOException {
        SyntheticStream a = s(false).untagged(RdmapOpcode.SEND, true, 1, 0, 0, 30);
        RecordingSink r = run(false, req(false), rep(false), a, null, b -> java.util.Arrays.copyOf(b, b.length - 5));
        assertEquals(List.of(Check.CAPTURE_INCOMPLETE), r.checks());
        assertEquals(Check.Severity.NOTE, r.violations.get(0).check().severity());
    }
}
