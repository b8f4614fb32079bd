package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.mpa.CrcMode;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaFailure.Reason;
import io.jrnic.mpa.MpaHandshaker;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.MpaResponder;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.mpa.Outcome;
import io.jrnic.mpa.RtrType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * MpaInitiator and MpaResponder (RFC 5044 section 7.1, RFC 6581) fed arbitrary peer bytes in
 * arbitrary chunks, with fuzzer-chosen options. Input: options (see {@link #readOptions}), chunk
 * sizes, an action byte (responder: accept or reject), then the peer's bytes.
 *
 * <p>The reference for what the peer sent is {@link MpaSetupFrame#decode} on all the bytes at
 * once: its error must be the handshaker's failure; null (incomplete) must leave the handshaker
 * in NEED_MORE with every byte consumed; a frame must be consumed exactly, and the outcome must be
 * the one the ordered rules of the class javadoc give.
 */
class MpaHandshakeFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void initiator(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        MpaOptions options = readOptions(in);
        int[] sizes = Chunks.readSizes(in);
        in.u8(); // action byte: unused by the initiator (same layout as the responder)
        byte[] peer = in.rest();

        MpaInitiator initiator = new MpaInitiator(options);
        ByteBuf requestBytes = initiator.request();
        MpaSetupFrame request;
        try {
            request = MpaSetupFrame.decode(requestBytes, MpaSetupFrame.Kind.REQUEST, 65535);
            assertNotNull(request, "our own Request decodes");
        } finally {
            requestBytes.release();
        }
        Fed fed = feed(initiator, peer, sizes);
        Reference ref = Reference.of(peer, MpaSetupFrame.Kind.REPLY, options.receivePrivateDataLimit());
        Outcome o = fed.last;
        if (checkedDecodeStage(initiator, ref, fed)) {
            return;
        }
        MpaSetupFrame reply = ref.frame;
        assertEquals(reply, o.peerFrame() == null ? reply : o.peerFrame());
        Reason expected = initiatorRule(options, request, reply, o.bytesLeft());
        if (expected == null) {
            assertEquals(Outcome.Status.DONE, o.status(), o::toString);
            assertNull(o.toSend());
            MpaParameters p = o.parameters();
            assertEquals(reply.revision(), p.revision());
            assertEquals(request.crc() || reply.crc(), p.crc());
            assertEquals(reply.markers(), p.markersTx());
            assertEquals(options.markersRx(), p.markersRx());
            checkIrdOrd(options, p, reply.v2Words());
            checkP2p(options, p, reply.v2Words());
        } else {
            assertEquals(Outcome.Status.FAILED, o.status(), () -> "expected " + expected + ", got " + o);
            checkFailure(o.failure(), expected);
            assertNull(o.toSend());
        }
    }

    @FuzzTest(maxDuration = "60s")
    void responder(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        MpaOptions options = readOptions(in);
        int[] sizes = Chunks.readSizes(in);
        boolean reject = (in.u8() & 1) != 0;
        byte[] peer = in.rest();

        MpaResponder responder = new MpaResponder(options);
        Fed fed = feed(responder, peer, sizes);
        Reference ref = Reference.of(peer, MpaSetupFrame.Kind.REQUEST, options.receivePrivateDataLimit());
        Outcome o = fed.last;
        if (checkedDecodeStage(responder, ref, fed)) {
            return;
        }
        MpaSetupFrame request = ref.frame;
        if (options.strictTiming() && o.bytesLeft() > 0) {
            assertEquals(Outcome.Status.FAILED, o.status());
            checkFailure(o.failure(), Reason.BYTES_AFTER_SETUP_FRAME);
            return;
        }
        assertEquals(Outcome.Status.REQUEST_RECEIVED, o.status(), o::toString);
        assertEquals(request, o.peerFrame());
        assertEquals(request, responder.request());
        Outcome answer = reject ? responder.reject(options.privateData()) : responder.accept();
        ByteBuf toSend = answer.toSend();
        assertNotNull(toSend, "the responder always has a Reply to send");
        MpaSetupFrame reply;
        try {
            reply = MpaSetupFrame.decode(toSend, MpaSetupFrame.Kind.REPLY, 65535);
            assertNotNull(reply);
            assertFalse(toSend.isReadable(), "one Reply, nothing else");
        } finally {
            toSend.release();
        }
        int revision = Math.min(request.revision(), options.revision());
        assertEquals(revision, reply.revision());
        assertEquals(options.crc() != CrcMode.OFF || request.crc(), reply.crc());
        assertEquals(options.markersRx(), reply.markers());
        assertEquals(reject, reply.reject());
        MpaV2Words peerWords = revision == 2 ? request.v2Words() : null;
        assertEquals(peerWords != null, reply.v2Words() != null, "words in the Reply iff the Request had them");
        if (reject) {
            assertEquals(Outcome.Status.FAILED, answer.status());
            checkFailure(answer.failure(), Reason.REJECTED_LOCALLY);
            return;
        }
        if (answer.status() == Outcome.Status.FAILED) {
            Reason r = answer.failure().reason();
            assertTrue(r == Reason.NO_MATCHING_RTR || r == Reason.INSUFFICIENT_IRD, r::toString);
            checkFailure(answer.failure(), r);
            assertNotNull(answer.parameters(), "framing for the Terminate");
            if (r == Reason.INSUFFICIENT_IRD) {
                assertFalse(fits(options, answer.parameters(), peerWords), "reported INSUFFICIENT_IRD but fits");
            }
            return;
        }
        assertEquals(Outcome.Status.DONE, answer.status(), answer::toString);
        MpaParameters p = answer.parameters();
        assertEquals(revision, p.revision());
        assertEquals(reply.crc(), p.crc());
        assertEquals(request.markers(), p.markersTx());
        assertEquals(options.markersRx(), p.markersRx());
        checkIrdOrd(options, p, peerWords);
        checkP2p(options, p, peerWords);
        if (reply.v2Words() != null) {
            assertEquals(p.localIrd(), reply.v2Words().ird());
            assertEquals(p.localOrd(), reply.v2Words().ord());
        }
    }

    /** The decode stage against the reference; true when nothing is left to check. */
    private static boolean checkedDecodeStage(MpaHandshaker h, Reference ref, Fed fed) {
        Outcome o = fed.last;
        if (ref.error != null) {
            assertEquals(Outcome.Status.FAILED, o.status(), () -> "reference failed with " + ref.error.reason());
            checkFailure(o.failure(), ref.error.reason());
            assertEquals(ref.error.error(), o.failure().llpError());
            return true;
        }
        if (ref.frame == null) {
            assertEquals(Outcome.Status.NEED_MORE, o.status(), o::toString);
            assertFalse(h.isFinished());
            Outcome closed = h.onConnectionClosed();
            assertEquals(Outcome.Status.FAILED, closed.status());
            checkFailure(closed.failure(), Reason.CONNECTION_CLOSED);
            assertSame(closed, h.onTimeout(), "finished: the timeout changes nothing");
            return true;
        }
        assertTrue(o.status() != Outcome.Status.NEED_MORE, "a whole frame was fed");
        assertEquals(ref.frame.encodedLength(), fed.consumed, "exactly the frame is consumed");
        assertEquals(fed.leftInLastChunk, o.bytesLeft(), "bytesLeft");
        return false;
    }

    /** The ordered rules of MpaInitiator's javadoc after a well-formed Reply; null for DONE. */
    private static Reason initiatorRule(MpaOptions options, MpaSetupFrame request, MpaSetupFrame reply, int left) {
        if (reply.revision() > request.revision()) {
            return Reason.INVALID_REVISION;
        }
        if (reply.reject()) {
            return Reason.REJECTED_BY_PEER;
        }
        if (request.v2Words() != null && reply.revision() == 2 && reply.v2Words() == null) {
            return Reason.ENHANCED_MISMATCH;
        }
        if (options.crc() == CrcMode.REQUIRED && !reply.crc()) {
            return Reason.CRC_NOT_CONFIRMED;
        }
        if (options.strictTiming() && left > 0) {
            return Reason.BYTES_AFTER_SETUP_FRAME;
        }
        MpaV2Words peer = reply.v2Words();
        if (options.p2p() && peer != null && peer.p2p()) {
            long offered = options.rtrTypes().stream().filter(peer::offers).count();
            if (peer.rtrCount() != 1 || offered != 1) {
                return Reason.NO_MATCHING_RTR;
            }
        }
        if (peer != null) {
            int ord = options.ord();
            int ird = options.ird();
            boolean fits = options.relaxedIrdOrd() ? Math.max(ird, peer.ord()) <= options.maxIrd()
                    : ord <= peer.ird() && peer.ord() <= ird;
            if (!fits) {
                return Reason.INSUFFICIENT_IRD;
            }
        }
        return null;
    }

    private static void checkFailure(MpaFailure f, Reason reason) {
        assertNotNull(f);
        assertEquals(reason, f.reason(), f::toString);
        LlpError expected = switch (reason) {
            case REJECTED_BY_PEER, REJECTED_LOCALLY, TIMEOUT -> null;
            case CONNECTION_CLOSED -> LlpError.TCP_CONNECTION_LOST;
            case INSUFFICIENT_IRD -> LlpError.INSUFFICIENT_IRD;
            case NO_MATCHING_RTR -> LlpError.NO_MATCHING_RTR;
            default -> LlpError.INVALID_SETUP_FRAME;
        };
        assertEquals(expected, f.llpError(), f::toString);
        assertEquals(reason == Reason.INSUFFICIENT_IRD || reason == Reason.NO_MATCHING_RTR, f.terminate());
    }

    private static boolean fits(MpaOptions options, MpaParameters p, MpaV2Words peer) {
        return peer == null || (p.localOrd() <= peer.ird() && peer.ord() <= p.localIrd()
                && p.localIrd() <= options.maxIrd());
    }

    /** RFC 6581 section 5: our ORD within the peer's IRD, the peer's ORD within our IRD. */
    private static void checkIrdOrd(MpaOptions options, MpaParameters p, MpaV2Words peer) {
        assertTrue(p.localIrd() >= 0 && p.localIrd() <= options.maxIrd(), p::toString);
        if (peer == null) {
            assertEquals(-1, p.peerIrd());
            return;
        }
        assertEquals(peer.ird(), p.peerIrd());
        assertEquals(peer.ord(), p.peerOrd());
        assertTrue(fits(options, p, peer), () -> "IRD/ORD do not fit: " + p + " peer " + peer);
        if (!options.relaxedIrdOrd()) {
            assertEquals(options.ird(), p.localIrd());
            assertEquals(options.ord(), p.localOrd());
        }
    }

    private static void checkP2p(MpaOptions options, MpaParameters p, MpaV2Words peer) {
        if (!p.p2p()) {
            assertEquals(RtrType.NONE, p.rtrType());
            assertFalse(options.p2p() && peer != null && peer.p2p(), "P2P asked on both sides but not granted");
            return;
        }
        assertTrue(options.p2p() && peer != null && peer.p2p());
        assertTrue(options.rtrTypes().contains(p.rtrType()) && peer.offers(p.rtrType()), p::toString);
    }

    record Fed(Outcome last, int consumed, int leftInLastChunk) {
    }

    /** Feeds the chunks until the handshaker leaves NEED_MORE; checks what each feed consumed. */
    private static Fed feed(MpaHandshaker h, byte[] peer, int[] sizes) {
        Outcome o = h.outcome();
        int consumed = 0;
        int left = 0;
        for (byte[] chunk : Chunks.split(peer, sizes)) {
            ByteBuf buf = Chunks.guarded(chunk, 3, 3);
            try {
                int before = buf.readerIndex();
                try {
                    o = h.feed(buf);
                } catch (RuntimeException e) {
                    throw new AssertionError("feed threw instead of returning an outcome", e);
                }
                consumed += buf.readerIndex() - before;
                left = buf.readableBytes();
                if (o.toSend() != null) {
                    fail("feed produced bytes to send: " + o);
                }
                if (o.status() == Outcome.Status.NEED_MORE) {
                    assertFalse(buf.isReadable(), "NEED_MORE but bytes left unconsumed");
                } else {
                    break;
                }
            } finally {
                buf.release();
            }
        }
        return new Fed(o, consumed, left);
    }

    record Reference(MpaSetupFrame frame, MpaException error) {
        static Reference of(byte[] peer, MpaSetupFrame.Kind kind, int cap) {
            ByteBuf all = Unpooled.wrappedBuffer(peer);
            try {
                return new Reference(MpaSetupFrame.decode(all, kind, cap), null);
            } catch (MpaException e) {
                return new Reference(null, e);
            } finally {
                all.release();
            }
        }
    }

    /**
     * Options: flags byte (bit 0 revision 1, bits 1..2 CrcMode, bit 3 markers, bit 4 strict IRD/ORD,
     * bit 5 P2P, bit 6 strict timing), RTR byte (bits 0..2 SEND/WRITE/READ, bits 3..4 rotation),
     * maxIrd, IRD, ORD (u16 each), private data length and bytes, extra PD_Length cap (u16).
     */
    static MpaOptions readOptions(FuzzInput in) {
        int flags = in.u8();
        int revision = (flags & 1) == 0 ? 2 : 1;
        int rtrBits = in.u8();
        List<RtrType> types = new ArrayList<>();
        RtrType[] all = {RtrType.SEND, RtrType.WRITE, RtrType.READ};
        int rot = (rtrBits >>> 3) & 3;
        for (int i = 0; i < 3; i++) {
            int k = (i + rot) % 3;
            if ((rtrBits & (1 << k)) != 0) {
                types.add(all[k]);
            }
        }
        boolean p2p = revision == 2 && (flags & 32) != 0;
        if (p2p && types.isEmpty()) {
            types.add(RtrType.WRITE);
        }
        int maxIrd = in.u16() & MpaV2Words.MAX_VALUE;
        int ird = in.u16() % (maxIrd + 1);
        int ord = in.u16() & MpaV2Words.MAX_VALUE;
        byte[] pd = in.bytes(in.u8() % 32);
        int words = revision == 2 ? MpaV2Words.LENGTH : 0;
        int maxPd = Math.min(65535, pd.length + words + in.u16() % 1024);
        return MpaOptions.builder().revision(revision).crc(CrcMode.values()[((flags >>> 1) & 3) % 3])
                .markersRx((flags & 8) != 0).relaxedIrdOrd((flags & 16) == 0).p2p(p2p)
                .strictTiming((flags & 64) != 0).rtrTypes(types.toArray(new RtrType[0]))
                .maxIrd(maxIrd).ird(ird).ord(ord).privateData(pd).maxPrivateData(maxPd).build();
    }

    /** The seed layout of {@link #readOptions}. */
    static SeedWriter writeOptions(SeedWriter w, int flags, int rtrBits, int maxIrd, int ird, int ord, byte[] pd,
            int maxPdExtra) {
        return w.u8(flags).u8(rtrBits).u16(maxIrd).u16(ird).u16(ord).u8(pd.length).bytes(pd).u16(maxPdExtra);
    }
}
