package io.jrnic.mpa;

import io.jrnic.mpa.MpaFailure.Reason;
import io.netty.buffer.ByteBuf;
import java.time.Duration;

/**
 * The active side of MPA set-up (RFC 5044 section 7.1, RFC 6581): sends the Request, checks
 * the Reply. Usage: send {@link #request()}, then {@link #feed} the bytes read until DONE or
 * FAILED. Rules applied to the Reply, in order:
 * <ol>
 * <li>key, revision 1..2, PD_Length within the cap, words present with H (LLP 0x04);</li>
 * <li>revision above the Request's: INVALID_REVISION (0x04);</li>
 * <li>R set: REJECTED_BY_PEER with its private data;</li>
 * <li>revision 2 Request answered with revision 2 without H: ENHANCED_MISMATCH (0x04);</li>
 * <li>CrcMode.REQUIRED and C clear: CRC_NOT_CONFIRMED (0x04);</li>
 * <li>strict timing and bytes after the Reply: BYTES_AFTER_SETUP_FRAME (0x04);</li>
 * <li>P2P requested and granted with not exactly one offered RTR type: NO_MATCHING_RTR
 *     (0x07, Terminate); P2P not granted: plain mode;</li>
 * <li>IRD/ORD not fitting: INSUFFICIENT_IRD (0x06, Terminate).</li>
 * </ol>
 * CRC is used when either frame has C; markers are sent when the Reply has M.
 */
public final class MpaInitiator extends MpaHandshaker {
    private MpaSetupFrame request;

    public MpaInitiator(MpaOptions options) {
        super(options);
    }

    @Override
    Duration defaultTimeout() {
        return Duration.ofSeconds(10);
    }

    /** The Request frame this initiator sends. */
    public MpaSetupFrame requestFrame() {
        MpaSetupFrame.Builder b = MpaSetupFrame.builder(MpaSetupFrame.Kind.REQUEST)
                .revision(options.revision()).markers(options.markersRx()).crc(options.crc().flag())
                .privateData(options.privateData());
        if (options.revision() == MpaSetupFrame.REVISION_2) {
            boolean p2p = options.p2p();
            b.v2Words(new MpaV2Words(options.ird(), options.ord(), p2p,
                    p2p && options.rtrTypes().contains(RtrType.SEND), p2p && options.rtrTypes().contains(RtrType.WRITE),
                    p2p && options.rtrTypes().contains(RtrType.READ)));
        }
        return b.build();
    }

    /** The Request bytes to send first (caller owns the buffer). Once only. */
    public ByteBuf request() {
        expect(State.INITIAL, "request()");
        request = requestFrame();
        state = State.AWAIT_FRAME;
        return encode(request);
    }

    @Override
    public Outcome feed(ByteBuf in) {
        expect(State.AWAIT_FRAME, "feed()");
        MpaSetupFrame reply = decode(in, MpaSetupFrame.Kind.REPLY);
        if (reply == null) {
            return state == State.FAILED ? outcome() : set(Outcome.NEED_MORE);
        }
        int left = in.readableBytes();
        byte[] pd = reply.privateData();
        if (reply.revision() > request.revision()) {
            return fail(new MpaFailure(Reason.INVALID_REVISION, LlpError.INVALID_SETUP_FRAME, false, pd,
                    "Reply revision " + reply.revision() + " above the Request's " + request.revision()), null, null, left);
        }
        if (reply.reject()) {
            return fail(new MpaFailure(Reason.REJECTED_BY_PEER, null, false, pd, "the responder rejected"), null, null,
                    left);
        }
        if (request.v2Words() != null && reply.revision() == MpaSetupFrame.REVISION_2 && reply.v2Words() == null) {
            return fail(new MpaFailure(Reason.ENHANCED_MISMATCH, LlpError.INVALID_SETUP_FRAME, false, pd,
                    "revision 2 Reply without H to an enhanced Request"), null, null, left);
        }
        if (options.crc() == CrcMode.REQUIRED && !reply.crc()) {
            return fail(new MpaFailure(Reason.CRC_NOT_CONFIRMED, LlpError.INVALID_SETUP_FRAME, false, pd,
                    "CRC required, Reply has C clear"), null, null, left);
        }
        if (left > 0 && options.strictTiming()) {
            return timingViolation(left);
        }
        MpaV2Words peer = reply.v2Words();
        boolean p2p = options.p2p() && peer != null && peer.p2p();
        RtrType rtr = RtrType.NONE;
        if (p2p) {
            rtr = chosenRtr(peer);
        }
        int[] fit = fitIrdOrd(options.ird(), options.ord(), peer);
        boolean crc = request.crc() || reply.crc();
        MpaParameters params = new MpaParameters(reply.revision(), crc, reply.markers(), request.markers(),
                fit[0], fit[1],
                peer == null ? -1 : peer.ird(), peer == null ? -1 : peer.ord(), p2p, rtr == null ? RtrType.NONE : rtr,
                pd);
        if (rtr == null) {
            return fail(new MpaFailure(Reason.NO_MATCHING_RTR, LlpError.NO_MATCHING_RTR, true, pd,
                    "Reply RTR flags " + peer + " do not name exactly one offered type"), null, params, left);
        }
        if (fit[2] == 0) {
            return fail(insufficientIrd(peer, options.ird(), options.ord(), pd), null, params, left);
        }
        state = State.DONE;
        return set(new Outcome(Outcome.Status.DONE, null, reply, params, null, left));
    }

    /** The one RTR type the Reply selected, if we offered it; null otherwise. */
    private RtrType chosenRtr(MpaV2Words peer) {
        if (peer.rtrCount() != 1) {
            return null;
        }
        for (RtrType t : options.rtrTypes()) {
            if (peer.offers(t)) {
                return t;
            }
        }
        return null;
    }
}
