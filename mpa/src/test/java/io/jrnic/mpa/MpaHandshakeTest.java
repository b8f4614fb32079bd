package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.mpa.MpaFailure.Reason;
import io.jrnic.mpa.MpaSetupFrame.Kind;
import io.jrnic.mpa.Outcome.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Negotiation outcomes of RFC 5044 section 7.1 and RFC 6581, both roles against each other. */
class MpaHandshakeTest {

    private static final byte[] HELLO = {'h', 'i'};

    /** Runs initiator and responder against each other; returns {initiator, responder} outcomes. */
    private static Outcome[] run(MpaOptions i, MpaOptions r) {
        MpaInitiator ini = new MpaInitiator(i);
        MpaResponder res = new MpaResponder(r);
        ByteBuf req = ini.request();
        Outcome got = res.feed(req);
        assertFalse(req.isReadable());
        req.release();
        assertSame(Status.REQUEST_RECEIVED, got.status());
        Outcome ro = res.accept(HELLO);
        ByteBuf reply = ro.toSend();
        Outcome io = ini.feed(reply);
        assertFalse(reply.isReadable());
        reply.release();
        return new Outcome[] {io, ro};
    }

    /** Feeds a hand-made Reply to an initiator that sent its Request. */
    private static Outcome replyWith(MpaOptions i, MpaSetupFrame reply) {
        MpaInitiator ini = new MpaInitiator(i);
        ini.request().release();
        ByteBuf b = Unpooled.buffer();
        try {
            reply.encode(b);
            return ini.feed(b);
        } finally {
            b.release();
        }
    }

    private static MpaSetupFrame.Builder reply() {
        return MpaSetupFrame.builder(Kind.REPLY).v2Words(MpaV2Words.of(16, 16));
    }

    @Test
    void defaultsNegotiateRevisionTwoWithCrcAndTheWords() {
        Outcome[] o = run(MpaOptions.builder().privateData(new byte[] {7}).build(), MpaOptions.defaults());
        assertSame(Status.DONE, o[0].status());
        assertSame(Status.DONE, o[1].status());
        MpaParameters p = o[0].parameters();
        assertEquals(new MpaParameters(2, true, false, false, 16, 16, 16, 16, false, RtrType.NONE, HELLO), p);
        assertArrayEquals(new byte[] {7}, o[1].parameters().peerPrivateData());
        assertTrue(p.irdOrdExchanged());
        assertEquals(0, o[0].bytesLeft());
    }

    @Test
    void revisionIsTheLowerOfBoth() {
        MpaOptions v1 = MpaOptions.builder().revision(1).build();
        for (Outcome[] o : new Outcome[][] {run(MpaOptions.defaults(), v1), run(v1, MpaOptions.defaults())}) {
            assertEquals(1, o[0].parameters().revision());
            assertEquals(1, o[1].parameters().revision());
            assertFalse(o[0].parameters().irdOrdExchanged());
            assertEquals(-1, o[1].parameters().peerOrd());
            assertArrayEquals(HELLO, o[0].parameters().peerPrivateData());
        }
    }

    @Test
    void replyRevisionAboveTheRequestsIsInvalid() {
        Outcome o = replyWith(MpaOptions.builder().revision(1).build(), reply().build());
        assertSame(Reason.INVALID_REVISION, o.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, o.failure().llpError());
    }

    @Test
    void crcIsUsedWhenEitherSideSetsC() {
        MpaOptions off = MpaOptions.builder().crc(CrcMode.OFF).build();
        MpaOptions on = MpaOptions.builder().crc(CrcMode.WANTED).build();
        assertFalse(run(off, off)[0].parameters().crc());
        assertFalse(run(off, off)[1].parameters().crc());
        for (Outcome[] o : new Outcome[][] {run(off, on), run(on, off)}) {
            assertTrue(o[0].parameters().crc());
            assertTrue(o[1].parameters().crc());
        }
    }

    @Test
    void requiredCrcFailsWhenTheReplyDoesNotConfirmIt() {
        Outcome o = replyWith(MpaOptions.builder().crc(CrcMode.REQUIRED).build(), reply().crc(false).build());
        assertSame(Reason.CRC_NOT_CONFIRMED, o.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, o.failure().llpError());
        assertSame(Status.DONE, replyWith(MpaOptions.builder().crc(CrcMode.REQUIRED).build(),
                reply().crc(true).build()).status());
    }

    @Test
    void markersAreNegotiatedPerDirection() {
        Outcome[] o = run(MpaOptions.builder().markersRx(true).build(), MpaOptions.defaults());
        assertTrue(o[0].parameters().markersRx());
        assertFalse(o[0].parameters().markersTx());
        assertTrue(o[1].parameters().markersTx());
        assertFalse(o[1].parameters().markersRx());
        assertTrue(o[1].parameters().newEncoder().markers());
    }

    @Test
    void relaxedIrdOrdAdjustment() {
        Outcome[] o = run(MpaOptions.builder().ird(4).ord(64).build(), MpaOptions.builder().ird(16).ord(16).build());
        MpaParameters r = o[1].parameters();
        assertEquals(64, r.localIrd()); // raised to the initiator's ORD
        assertEquals(4, r.localOrd()); // lowered to the initiator's IRD
        MpaParameters i = o[0].parameters();
        assertEquals(4, i.localIrd());
        assertEquals(64, i.localOrd());
        assertEquals(64, i.peerIrd());
        assertEquals(4, i.peerOrd());
    }

    @Test
    void irdThatCannotBeRaisedFailsWithInsufficientIrdAndATerminate() {
        MpaResponder res = new MpaResponder(MpaOptions.builder().maxIrd(128).build());
        MpaInitiator ini = new MpaInitiator(MpaOptions.builder().ord(200).build());
        ByteBuf req = ini.request();
        res.feed(req);
        req.release();
        Outcome o = res.accept(HELLO);
        assertSame(Status.FAILED, o.status());
        assertSame(Reason.INSUFFICIENT_IRD, o.failure().reason());
        assertSame(LlpError.INSUFFICIENT_IRD, o.failure().llpError());
        assertTrue(o.failure().terminate());
        assertNotNull(o.parameters()); // framing for the Terminate
        ByteBuf reply = o.toSend();
        MpaSetupFrame f = MpaSetupFrame.decode(reply, Kind.REPLY, 512);
        reply.release();
        assertFalse(f.reject());
        assertEquals(128, f.v2Words().ird());
    }

    @Test
    void strictIrdOrdFailsOnEitherSide() {
        MpaOptions strict = MpaOptions.builder().relaxedIrdOrd(false).ird(8).ord(8).build();
        Outcome[] o = run(MpaOptions.builder().ord(9).build(), strict);
        assertSame(Reason.INSUFFICIENT_IRD, o[1].failure().reason());
        o[1].toSend();
        Outcome io = replyWith(strict, reply().v2Words(MpaV2Words.of(7, 8)).build());
        assertSame(Reason.INSUFFICIENT_IRD, io.failure().reason());
        assertTrue(io.failure().terminate());
        assertSame(Status.DONE, replyWith(strict, reply().v2Words(MpaV2Words.of(8, 8)).build()).status());
    }

    @Test
    void p2pPicksTheResponderPreferenceAmongOfferedTypes() {
        MpaOptions any = MpaOptions.builder().p2p(true).build();
        Outcome[] o = run(any, any);
        assertSame(RtrType.WRITE, o[0].parameters().rtrType());
        assertSame(RtrType.WRITE, o[1].parameters().rtrType());
        o = run(MpaOptions.builder().p2p(true).rtrTypes(RtrType.SEND, RtrType.READ).build(), any);
        assertSame(RtrType.READ, o[0].parameters().rtrType());
        o = run(MpaOptions.builder().p2p(true).rtrTypes(RtrType.SEND).build(), any);
        assertSame(RtrType.SEND, o[1].parameters().rtrType());
        assertTrue(o[0].parameters().p2p());
        o = run(any, MpaOptions.defaults()); // responder without p2p: plain mode
        assertFalse(o[0].parameters().p2p());
        assertSame(RtrType.NONE, o[0].parameters().rtrType());
    }

    @Test
    void noCommonRtrTypeFailsWithNoMatchingRtrOnTheResponder() {
        MpaInitiator ini = new MpaInitiator(MpaOptions.builder().p2p(true).rtrTypes(RtrType.SEND).build());
        MpaResponder res = new MpaResponder(MpaOptions.builder().p2p(true).rtrTypes(RtrType.WRITE, RtrType.READ).build());
        ByteBuf req = ini.request();
        res.feed(req);
        req.release();
        Outcome o = res.accept(HELLO);
        assertSame(Reason.NO_MATCHING_RTR, o.failure().reason());
        assertSame(LlpError.NO_MATCHING_RTR, o.failure().llpError());
        assertTrue(o.failure().terminate());
        ByteBuf reply = o.toSend();
        Outcome io = ini.feed(reply); // the initiator sees P2P with no RTR type
        reply.release();
        assertSame(Reason.NO_MATCHING_RTR, io.failure().reason());
    }

    /** siw quirk: offered only SEND, it selects WRITE. We refuse a type we did not offer. */
    @Test
    void replySelectingAnUnofferedRtrTypeIsNoMatchingRtr() {
        MpaOptions sendOnly = MpaOptions.builder().p2p(true).rtrTypes(RtrType.SEND).build();
        Outcome o = replyWith(sendOnly, reply().v2Words(new MpaV2Words(16, 16, true, false, true, false)).build());
        assertSame(Reason.NO_MATCHING_RTR, o.failure().reason());
        assertSame(LlpError.NO_MATCHING_RTR, o.failure().llpError());
        assertSame(RtrType.NONE, o.parameters().rtrType());
    }

    @Test
    void rejectionCarriesPrivateDataToTheInitiator() {
        MpaInitiator ini = new MpaInitiator(MpaOptions.defaults());
        MpaResponder res = new MpaResponder(MpaOptions.defaults());
        ByteBuf req = ini.request();
        res.feed(req);
        req.release();
        Outcome ro = res.reject(new byte[] {'n', 'o'});
        assertSame(Reason.REJECTED_LOCALLY, ro.failure().reason());
        assertNull(ro.failure().llpError());
        ByteBuf reply = ro.toSend();
        Outcome io = ini.feed(reply);
        reply.release();
        assertSame(Reason.REJECTED_BY_PEER, io.failure().reason());
        assertArrayEquals(new byte[] {'n', 'o'}, io.failure().peerPrivateData());
        assertNull(io.failure().llpError());
    }

    @Test
    void badFramesFailWithInvalidSetupFrame() {
        MpaResponder res = new MpaResponder(MpaOptions.builder().maxPrivateData(256).build());
        ByteBuf junk = Unpooled.copiedBuffer("GET / HTTP/1.1\r\n", java.nio.charset.StandardCharsets.US_ASCII);
        Outcome o = res.feed(junk);
        junk.release();
        assertSame(Reason.INVALID_KEY, o.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, o.failure().llpError());
        assertFalse(o.failure().terminate());

        Outcome big = feedRequest(MpaOptions.builder().maxPrivateData(256).build(),
                MpaSetupFrame.builder(Kind.REQUEST).v2Words(MpaV2Words.of(1, 1)).privateData(new byte[509]).build());
        assertSame(Reason.PRIVATE_DATA_TOO_LONG, big.failure().reason(), "PD_Length 513 is over RFC 5044's 512");

        Outcome enh = replyWith(MpaOptions.defaults(), MpaSetupFrame.builder(Kind.REPLY).build());
        assertSame(Reason.ENHANCED_MISMATCH, enh.failure().reason());

        ByteBuf noWords = Unpooled.buffer().writeBytes(Kind.REQUEST.key()).writeByte(0x10).writeByte(2).writeShort(0);
        Outcome len = new MpaResponder(MpaOptions.defaults()).feed(noWords);
        noWords.release();
        assertSame(Reason.INVALID_LENGTH, len.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, len.failure().llpError());
    }

    /** RFC 5044 section 7.1: up to 512 bytes of private data are accepted whatever our own sending cap. */
    @Test
    void privateDataUpTo512IsAcceptedOnReceiveWhateverOurSendingCap() {
        MpaOptions siwCap = MpaOptions.builder().maxPrivateData(MpaSetupFrame.SIW_MAX_PRIVATE_DATA).build();
        for (int app : new int[] {253, 508}) {
            Outcome req = feedRequest(siwCap,
                    MpaSetupFrame.builder(Kind.REQUEST).v2Words(MpaV2Words.of(1, 1)).privateData(new byte[app]).build());
            assertSame(Status.REQUEST_RECEIVED, req.status(), "Request with PD_Length " + (app + 4));
            assertEquals(app, req.peerFrame().privateData().length);
            Outcome rep = replyWith(siwCap, reply().privateData(new byte[app]).build());
            assertSame(Status.DONE, rep.status(), "Reply with PD_Length " + (app + 4));
            assertEquals(app, rep.parameters().peerPrivateData().length);
        }
        Outcome over = replyWith(siwCap, reply().privateData(new byte[509]).build());
        assertSame(Reason.PRIVATE_DATA_TOO_LONG, over.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, over.failure().llpError());
    }

    /**
     * RFC 5044 section 7.1.1: the initiator sends no FPDU before it has the Reply. Bytes pipelined behind
     * the Request, in the same read or before the Reply, fail the set-up by default; leniency keeps them.
     */
    @Test
    void bytesPipelinedBehindTheRequestAreRefusedByDefaultAndKeptWhenLenient() {
        assertTrue(MpaOptions.defaults().strictTiming());
        MpaInitiator ini = new MpaInitiator(MpaOptions.defaults());
        ByteBuf req = ini.request();
        req.writeBytes(new byte[] {0, 14, 1, 2});
        Outcome o = new MpaResponder(MpaOptions.defaults()).feed(req);
        req.release();
        assertSame(Reason.BYTES_AFTER_SETUP_FRAME, o.failure().reason());
        assertSame(LlpError.INVALID_SETUP_FRAME, o.failure().llpError());

        for (boolean strict : new boolean[] {true, false}) {
            MpaResponder res = new MpaResponder(MpaOptions.builder().strictTiming(strict).build());
            ByteBuf alone = new MpaInitiator(MpaOptions.defaults()).request();
            assertSame(Status.REQUEST_RECEIVED, res.feed(alone).status());
            alone.release();
            Outcome later = res.bytesBeforeReply(8);
            if (strict) {
                assertSame(Reason.BYTES_AFTER_SETUP_FRAME, later.failure().reason(), "an FPDU before our Reply");
                assertThrows(IllegalStateException.class, res::accept);
            } else {
                assertSame(Status.REQUEST_RECEIVED, later.status());
                Outcome done = res.accept();
                assertSame(Status.DONE, done.status());
                assertEquals(8, done.bytesLeft());
                done.toSend().release();
            }
        }
    }

    private static Outcome feedRequest(MpaOptions r, MpaSetupFrame request) {
        ByteBuf b = Unpooled.buffer();
        try {
            request.encode(b);
            return new MpaResponder(r).feed(b);
        } finally {
            b.release();
        }
    }

    @Test
    void byteAtATimeNeedsMoreUntilTheFrameIsWhole() {
        MpaInitiator ini = new MpaInitiator(MpaOptions.builder().privateData(new byte[] {1, 2, 3}).build());
        MpaResponder res = new MpaResponder(MpaOptions.defaults());
        ByteBuf req = ini.request();
        try {
            while (req.readableBytes() > 1) {
                assertSame(Status.NEED_MORE, res.feed(req.readSlice(1)).status());
            }
            Outcome o = res.feed(req);
            assertSame(Status.REQUEST_RECEIVED, o.status());
            assertArrayEquals(new byte[] {1, 2, 3}, o.peerFrame().privateData());
        } finally {
            req.release();
        }
    }

    /** Timing rule: bytes after the Request are left for the FPDU decoder, or refused when strict. */
    @Test
    void bytesAfterTheSetupFrameAreLeftUnconsumedOrRefused() {
        for (boolean strict : new boolean[] {false, true}) {
            MpaInitiator ini = new MpaInitiator(MpaOptions.defaults());
            MpaResponder res = new MpaResponder(MpaOptions.builder().strictTiming(strict).build());
            ByteBuf req = ini.request();
            int frame = req.readableBytes();
            req.writeBytes(new byte[] {0, 14, 1, 2});
            Outcome o = res.feed(req);
            assertEquals(4, o.bytesLeft());
            assertEquals(frame, req.readerIndex());
            req.release();
            if (strict) {
                assertSame(Reason.BYTES_AFTER_SETUP_FRAME, o.failure().reason());
                assertSame(LlpError.INVALID_SETUP_FRAME, o.failure().llpError());
            } else {
                assertSame(Status.REQUEST_RECEIVED, o.status());
            }
        }
    }

    @Test
    void timeoutAndConnectionLossFailAnUnfinishedSetup() {
        MpaInitiator ini = new MpaInitiator(MpaOptions.defaults());
        assertEquals(Duration.ofSeconds(10), ini.timeout());
        ini.request().release();
        Outcome t = ini.onTimeout();
        assertSame(Reason.TIMEOUT, t.failure().reason());
        assertNull(t.failure().llpError());
        assertTrue(ini.isFinished());

        MpaResponder res = new MpaResponder(MpaOptions.builder().timeout(Duration.ofMillis(300)).build());
        assertEquals(Duration.ofMillis(300), res.timeout());
        Outcome c = res.onConnectionClosed();
        assertSame(Reason.CONNECTION_CLOSED, c.failure().reason());
        assertSame(LlpError.TCP_CONNECTION_LOST, c.failure().llpError());

        Outcome[] done = run(MpaOptions.defaults(), MpaOptions.defaults());
        assertSame(Status.DONE, done[0].status());
        done[1].toSend();
    }

    @Test
    void timeoutAfterDoneChangesNothing() {
        MpaInitiator ini = new MpaInitiator(MpaOptions.defaults());
        MpaResponder res = new MpaResponder(MpaOptions.defaults());
        ByteBuf req = ini.request();
        res.feed(req);
        req.release();
        ByteBuf reply = res.accept().toSend();
        Outcome done = ini.feed(reply);
        reply.release();
        assertSame(done, ini.onTimeout());
        assertSame(Status.DONE, res.onTimeout().status());
        assertThrows(IllegalStateException.class, () -> ini.feed(Unpooled.EMPTY_BUFFER));
    }

    @Test
    void optionsRefuseInconsistentSettings() {
        assertThrows(IllegalArgumentException.class, () -> MpaOptions.builder().revision(3).build());
        assertThrows(IllegalArgumentException.class, () -> MpaOptions.builder().revision(1).p2p(true).build());
        assertThrows(IllegalArgumentException.class, () -> MpaOptions.builder().ird(200).build());
        assertThrows(IllegalArgumentException.class,
                () -> MpaOptions.builder().maxPrivateData(256).privateData(new byte[253]).build());
        MpaOptions.builder().maxPrivateData(256).privateData(new byte[252]).build();
    }
}
