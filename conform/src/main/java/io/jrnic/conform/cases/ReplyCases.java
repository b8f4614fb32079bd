package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Responder.c;
import static io.jrnic.conform.cases.Responder.reply;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Observation.Kind;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingServerPeer;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** MPA set-up from the responder's side: the target's checks of a Reply (RFC 5044 section 7.1, RFC 6581). */
final class ReplyCases {
    private static final String S711 = "RFC 5044 section 7.1.1";

    private ReplyCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        l.add(c("mpa.reply.v2", "RFC 6581 section 5", "rping's Reply sets up and the client pings",
                Strictness.MUST, Expect.proceeds(), reply(f -> { })));
        l.add(c("mpa.reply.crc", S711 + " (C)", "C set in the Reply alone turns CRCs on both ways",
                Strictness.MUST, Expect.proceeds(), reply(f -> f.flags |= SetupFrame.C)));
        l.add(c("mpa.reply.v1", "RFC 6581 section 5 (revision 1 compatibility)", "a revision 1 Reply (no IRD/ORD) to a "
                + "revision 2 Request is taken", Strictness.SHOULD, Expect.proceeds(), reply(f -> {
                    f.revision = 1;
                    f.flags &= ~SetupFrame.H;
                    f.privateDataLength(0);
                })));
        for (int rev : new int[] {0, 3}) {
            l.add(c("mpa.reply.rev" + rev, S711, "a Reply of revision " + rev + " makes the client give up",
                    Strictness.MUST, Expect.connectionEnds(), reply(f -> f.revision = rev)));
        }
        l.add(c("mpa.reply.key.first-octet", S711, "a Reply whose key differs in its first octet makes the client give up",
                Strictness.MUST, Expect.connectionEnds(), reply(f -> f.key[0] ^= 0x20)));
        l.add(c("mpa.reply.key.request-key", S711, "a Reply carrying the Request key makes the client give up",
                Strictness.MUST, Expect.connectionEnds(), reply(f -> f.key = MpaSetupFrame.Kind.REQUEST.key())));
        for (int bit : new int[] {0x01, 0x02, 0x04, 0x08}) {
            l.add(c(String.format("mpa.reply.flags.reserved-0x%02x", bit), S711, "a reserved flag bit in the Reply is ignored",
                    Strictness.MUST, Expect.proceeds(), reply(f -> f.flags |= bit)));
        }
        l.add(c("mpa.reply.reject", S711 + " (R)", "a Reply with R makes the client close, sending nothing",
                Strictness.MUST, Expect.closes(), reply(f -> f.flags |= SetupFrame.R)));
        l.add(c("mpa.reply.flags.m", S711 + " (M)", "a Reply asking for markers: the client inserts them correctly",
                Strictness.SHOULD, Expect.proceeds(), reply(f -> f.flags |= SetupFrame.M)));
        for (int pd : new int[] {4, 256, 257, 512}) {
            l.add(c("mpa.reply.pd." + pd, S711 + " (PD_Length at most 512)", pd + " octets of private data in the Reply "
                    + "are taken", Strictness.MUST, Expect.proceeds(), reply(f -> f.privateDataLength(pd))));
        }
        l.add(c("mpa.reply.pd.513", S711 + " (PD_Length at most 512)", "513 octets of private data make the client give up",
                Strictness.MUST, Expect.connectionEnds(), reply(f -> f.privateDataLength(513))));
        l.add(c("mpa.reply.h-without-words", "RFC 6581 section 5 (H)", "a revision 2 Reply with H and no IRD/ORD words "
                + "makes the client give up", Strictness.MUST, Expect.connectionEnds(), reply(f -> f.privateDataLength(0))));
        l.add(c("mpa.reply.ord-above-ird", "RFC 6581 section 5 (IRD/ORD)", "a Reply whose ORD 0x3FFF exceeds the client's "
                + "IRD 1 (and any IRD it could raise to) ends the connection (LLP/0/0x06)", Strictness.SHOULD,
                Expect.terminate(2, 0, 0x06).or(Kind.CLOSED, Kind.RESET), reply(f -> f.words(MpaV2Words.of(1, 0x3FFF)))));
        String stall = "RFC 5044 section 7.1.5 (set-up timeout)";
        l.add(c("mpa.reply.stall.nothing", stall, "a server that never replies is dropped",
                Strictness.SHOULD, Expect.connectionEnds(), stalled(null)));
        l.add(c("mpa.reply.stall.half-header", stall, "a server that sends 10 octets of a Reply and stops is dropped",
                Strictness.SHOULD, Expect.connectionEnds(), stalled(f -> Arrays.copyOf(f.encode(), 10))));
        l.add(c("mpa.reply.stall.short-private-data", stall, "a Reply whose PD_Length promises more than arrives is dropped",
                Strictness.SHOULD, Expect.connectionEnds(), stalled(f -> {
                    f.pdLength = 100;
                    return f.encode();
                })));
        l.add(c("mpa.reply.fpdu-behind-reply", "RFC 5044 section 7.1.2 (the responder waits for the first FPDU)",
                "an FPDU in the Reply's own segment is refused", Strictness.SHOULD, Expect.connectionEnds(), ctx -> {
                    try (RpingServerPeer p = RpingServerPeer.accept(ctx)) {
                        Observation o = p.awaitRequest();
                        if (o != null) {
                            return o;
                        }
                        SetupFrame f = p.defaultReply();
                        byte[] r = f.encode();
                        byte[] fpdu = Session.Framing.fpdu(Ulpdus.send(1, new byte[16]), 34, (byte) 0, true);
                        byte[] both = Arrays.copyOf(r, r.length + fpdu.length);
                        System.arraycopy(fpdu, 0, both, r.length, fpdu.length);
                        o = p.reply(f, both);
                        return o != null ? o : Terminates.observe(p.session(), ctx.timeout());
                    }
                }));
        return l;
    }

    @FunctionalInterface
    private interface Bytes {
        byte[] of(SetupFrame f);
    }

    private static io.jrnic.conform.Script stalled(Bytes partial) {
        return ctx -> {
            try (RpingServerPeer p = RpingServerPeer.accept(ctx)) {
                Observation o = p.awaitRequest();
                if (o != null) {
                    return o;
                }
                if (partial != null) {
                    p.session().send(partial.of(p.defaultReply()));
                }
                return Terminates.observe(p.session(), ctx.stallTimeout());
            }
        };
    }
}
