package io.jrnic.soft.mpa;

import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaException;
import io.jrnic.mpa.MpaFailure;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.mpa.Mulpdu;
import io.jrnic.mpa.RtrType;
import io.jrnic.soft.engine.StreamParams;

/**
 * MPA set-up negotiation, free of I/O (RFC 5044 section 7.1; RFC 6581 sections 5 and 7):
 * C in either frame means CRCs both ways; M asks for markers in the data its sender receives;
 * revision 2 with H carries IRD/ORD, negotiated "relaxed" like Linux siw (responder ORD lowered to the
 * initiator's IRD, responder IRD raised to the initiator's ORD); peer-to-peer RTR chosen WRITE if
 * offered, else READ (a SEND-only offer has no match here: LLP 0x07).
 */
public final class Negotiation {
    private Negotiation() {
    }

    /** The initiator's Request: P2P offers a zero-length WRITE RTR only. */
    public static MpaSetupFrame request(MpaConfig c) {
        MpaSetupFrame.Builder b = MpaSetupFrame.builder(MpaSetupFrame.Kind.REQUEST).revision(c.revision())
                .crc(c.crc()).markers(c.markers()).privateData(c.privateData());
        if (c.revision() == MpaSetupFrame.REVISION_2) {
            b.v2Words(new MpaV2Words(c.ird(), c.ord(), c.peerToPeer(), false, c.peerToPeer(), false));
        }
        return b.build();
    }

    /** What the initiator may use after the Reply. @throws MpaException for an unacceptable Reply */
    public static StreamParams initiator(MpaConfig c, MpaSetupFrame request, MpaSetupFrame reply) {
        if (reply.revision() > request.revision()) {
            throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.INVALID_REVISION,
                    "Reply revision " + reply.revision() + " above the Request's " + request.revision());
        }
        MpaV2Words mine = request.v2Words();
        MpaV2Words peer = reply.v2Words();
        if (mine != null && reply.revision() == MpaSetupFrame.REVISION_2 && peer == null) {
            throw new MpaException(LlpError.INVALID_SETUP_FRAME, MpaFailure.Reason.ENHANCED_MISMATCH,
                    "revision 2 Reply without H to an enhanced Request");
        }
        int ird = c.ird();
        int ord = c.ord();
        RtrType rtr = RtrType.NONE;
        if (mine != null && peer != null) {
            ord = Math.min(ord, peer.ird());
            if (peer.ord() > ird) {
                throw new MpaException(LlpError.INSUFFICIENT_IRD, MpaFailure.Reason.INSUFFICIENT_IRD,
                        "responder ORD " + peer.ord() + " over our IRD " + ird);
            }
            if (mine.p2p() && peer.p2p()) {
                if (peer.writeRtr() && peer.rtrCount() == 1) {
                    rtr = RtrType.WRITE;
                } else {
                    throw new MpaException(LlpError.NO_MATCHING_RTR, MpaFailure.Reason.NO_MATCHING_RTR,
                            "responder chose an RTR that was not offered: " + peer);
                }
            }
        }
        boolean crc = request.crc() || reply.crc();
        return new StreamParams(crc, reply.markers(), request.markers(), Mulpdu.fromMss(c.mss(), reply.markers()),
                ird, ord, rtr, true, c.firstFpduDelayMillis());
    }

    /** The responder's Reply to {@code request} under its options. @throws MpaException NO_MATCHING_RTR */
    public static MpaSetupFrame reply(MpaConfig c, MpaSetupFrame request) {
        MpaSetupFrame.Builder b = MpaSetupFrame.builder(MpaSetupFrame.Kind.REPLY)
                .revision(Math.min(request.revision(), c.revision())).crc(c.crc() || request.crc())
                .markers(c.markers()).privateData(c.privateData());
        MpaV2Words req = request.v2Words();
        if (req != null && c.revision() == MpaSetupFrame.REVISION_2) {
            int ord = Math.min(c.ord(), req.ird());
            int ird = Math.min(MpaV2Words.MAX_VALUE, Math.max(c.ird(), req.ord()));
            RtrType rtr = RtrType.NONE;
            if (req.p2p() && c.peerToPeer()) {
                if (req.writeRtr()) {
                    rtr = RtrType.WRITE;
                } else if (req.readRtr()) {
                    rtr = RtrType.READ;
                } else {
                    throw new MpaException(LlpError.NO_MATCHING_RTR, MpaFailure.Reason.NO_MATCHING_RTR,
                            "no RTR this side supports was offered: " + req);
                }
            }
            b.v2Words(MpaV2Words.withRtr(ird, ord, rtr != RtrType.NONE, rtr));
        }
        return b.build();
    }

    /** What the responder may use after sending {@code reply}. */
    public static StreamParams responder(MpaConfig c, MpaSetupFrame request, MpaSetupFrame reply) {
        MpaV2Words w = reply.v2Words();
        int ird = w != null ? w.ird() : c.ird();
        int ord = w != null ? w.ord() : c.ord();
        RtrType rtr = RtrType.NONE;
        if (w != null && w.p2p()) {
            rtr = w.writeRtr() ? RtrType.WRITE : RtrType.READ;
        }
        return new StreamParams(reply.crc() || request.crc(), request.markers(), reply.markers(),
                Mulpdu.fromMss(c.mss(), request.markers()), ird, ord, rtr, false, 0);
    }
}
