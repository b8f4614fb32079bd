package io.jrnic.mpa;

import io.jrnic.mpa.MpaFailure.Reason;
import io.netty.buffer.ByteBuf;
import java.time.Duration;

/**
 * The passive side of MPA set-up (RFC 5044 section 7.1, RFC 6581): reads the Request, lets
 * the application decide, produces the Reply. Usage: {@link #feed} until REQUEST_RECEIVED,
 * then {@link #accept} (DONE, or FAILED with a Terminate to send) or {@link #reject}.
 *
 * <p>The Reply: revision min(Request, ours); C set when we want CRC or the Request had C
 * (CRC then runs both ways); M when we want markers; H and the IRD/ORD words when the Request
 * had them and the Reply is revision 2. P2P: granted when we allow it and the Request asked,
 * with the first of our RTR types the Request offered; none: the Reply carries P2P with no RTR
 * flag and the failure NO_MATCHING_RTR (0x07) asks for a Terminate. IRD/ORD that cannot fit:
 * the Reply carries ours and INSUFFICIENT_IRD (0x06) asks for a Terminate. R in a Request is
 * ignored (it has no meaning there). The responder sends no FPDU before the initiator's first
 * one (timing rule): that is for the caller's FPDU path.
 */
public final class MpaResponder extends MpaHandshaker {
    private MpaSetupFrame request;
    private int left;

    public MpaResponder(MpaOptions options) {
        super(options);
        state = State.AWAIT_FRAME;
    }

    @Override
    Duration defaultTimeout() {
        return Duration.ofSeconds(5);
    }

    @Override
    public Outcome feed(ByteBuf in) {
        expect(State.AWAIT_FRAME, "feed()");
        MpaSetupFrame req = decode(in, MpaSetupFrame.Kind.REQUEST);
        if (req == null) {
            return state == State.FAILED ? outcome() : set(Outcome.NEED_MORE);
        }
        left = in.readableBytes();
        if (left > 0 && options.strictTiming()) {
            return timingViolation(left);
        }
        request = req;
        state = State.AWAIT_DECISION;
        return set(new Outcome(Outcome.Status.REQUEST_RECEIVED, null, req, null, null, left));
    }

    /**
     * More bytes arrived behind the Request while the application decides (before our Reply is
     * sent): under the timing rule (RFC 5044 section 7.1.1, {@link MpaOptions#strictTiming()}) the
     * initiator had no right to send them, so the set-up FAILS with BYTES_AFTER_SETUP_FRAME; when
     * lenient they are counted in {@link Outcome#bytesLeft()} and left for the FPDU decoder.
     */
    public Outcome bytesBeforeReply(int n) {
        expect(State.AWAIT_DECISION, "bytesBeforeReply()");
        left += n;
        return options.strictTiming() && left > 0 ? timingViolation(left) : outcome();
    }

    /** The Request, once received. */
    public MpaSetupFrame request() {
        return request;
    }

    /** Accepts with the options' private data, IRD and ORD. */
    public Outcome accept() {
        return accept(options.privateData(), options.ird(), options.ord());
    }

    public Outcome accept(byte[] privateData) {
        return accept(privateData, options.ird(), options.ord());
    }

    /**
     * Accepts with this private data and IRD/ORD (before adjustment).
     *
     * @throws IllegalArgumentException private data over the cap, IRD/ORD out of range
     */
    public Outcome accept(byte[] privateData, int ird, int ord) {
        expect(State.AWAIT_DECISION, "accept()");
        int revision = Math.min(request.revision(), options.revision());
        MpaV2Words peer = revision == MpaSetupFrame.REVISION_2 ? request.v2Words() : null;
        checkPrivateData(privateData, peer != null);
        if (ird > options.maxIrd() || ord > MpaV2Words.MAX_VALUE || ird < 0 || ord < 0) {
            throw new IllegalArgumentException("IRD/ORD out of range: " + ird + "/" + ord);
        }
        boolean p2p = options.p2p() && peer != null && peer.p2p();
        RtrType rtr = p2p ? choose(peer) : RtrType.NONE;
        int[] fit = fitIrdOrd(ird, ord, peer);
        int localIrd = fit[0];
        int localOrd = fit[1];
        MpaSetupFrame.Builder reply = replyBuilder(revision, privateData);
        if (peer != null) {
            reply.v2Words(MpaV2Words.withRtr(localIrd, localOrd, p2p, rtr == null ? RtrType.NONE : rtr));
        }
        MpaParameters params = new MpaParameters(revision, request.crc() || options.crc().flag(), request.markers(),
                options.markersRx(), localIrd, localOrd, peer == null ? -1 : peer.ird(), peer == null ? -1 : peer.ord(),
                p2p, rtr == null ? RtrType.NONE : rtr, request.privateData());
        ByteBuf bytes = encode(reply.build());
        if (rtr == null) {
            return fail(new MpaFailure(Reason.NO_MATCHING_RTR, LlpError.NO_MATCHING_RTR, true, request.privateData(),
                    "none of the RTR types " + options.rtrTypes() + " offered in " + peer), bytes, params, left);
        }
        if (fit[2] == 0) {
            return fail(insufficientIrd(peer, ird, ord, request.privateData()), bytes, params, left);
        }
        state = State.DONE;
        return set(new Outcome(Outcome.Status.DONE, bytes, request, params, null, left));
    }

    /** Rejects: FAILED (REJECTED_LOCALLY) with a Reply that has R set, carrying {@code privateData}. */
    public Outcome reject(byte[] privateData) {
        expect(State.AWAIT_DECISION, "reject()");
        int revision = Math.min(request.revision(), options.revision());
        MpaV2Words peer = revision == MpaSetupFrame.REVISION_2 ? request.v2Words() : null;
        checkPrivateData(privateData, peer != null);
        MpaSetupFrame.Builder reply = replyBuilder(revision, privateData).reject(true);
        if (peer != null) {
            reply.v2Words(MpaV2Words.of(options.ird(), options.ord())); // siw needs the words even here
        }
        return fail(new MpaFailure(Reason.REJECTED_LOCALLY, null, false, request.privateData(),
                "rejected by the application"), encode(reply.build()), null, left);
    }

    private MpaSetupFrame.Builder replyBuilder(int revision, byte[] privateData) {
        return MpaSetupFrame.builder(MpaSetupFrame.Kind.REPLY).revision(revision).markers(options.markersRx())
                .crc(options.crc().flag() || request.crc()).privateData(privateData);
    }

    private void checkPrivateData(byte[] privateData, boolean words) {
        if (privateData.length + (words ? MpaV2Words.LENGTH : 0) > options.maxPrivateData()) {
            throw new IllegalArgumentException("Reply private data of " + privateData.length + " bytes over the cap "
                    + options.maxPrivateData());
        }
    }

    /** Our first RTR type the initiator offered, or null. */
    private RtrType choose(MpaV2Words peer) {
        for (RtrType t : options.rtrTypes()) {
            if (peer.offers(t)) {
                return t;
            }
        }
        return null;
    }
}
