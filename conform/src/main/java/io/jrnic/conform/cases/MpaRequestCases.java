package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Initiator.c;
import static io.jrnic.conform.cases.Initiator.setup;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Observation.Kind;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingClientPeer;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.mpa.MpaSetupFrame;
import io.jrnic.mpa.MpaV2Words;
import io.jrnic.mpa.RtrType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** MPA connection set-up from the initiator's side: the target's checks of a Request (RFC 5044 section 7.1, RFC 6581). */
final class MpaRequestCases {
    private static final String S711 = "RFC 5044 section 7.1.1";
    private static final String S6581 = "RFC 6581 section 5";

    private MpaRequestCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        l.add(c("mpa.request.v2", S6581, "a revision 2 Request with H and IRD/ORD 1 sets up and pings",
                Strictness.MUST, Expect.proceeds(), setup(RpingClientPeer::defaultRequest)));
        l.add(c("mpa.request.v2-crc", S711, "a Request with C gets CRCs both ways",
                Strictness.MUST, Expect.proceeds(), setup(ctx -> crc(RpingClientPeer.defaultRequest(ctx)))));
        l.add(c("mpa.request.v1", "RFC 6581 section 5 (revision 1 compatibility)",
                "a revision 1 Request is answered in revision 1 and pings", Strictness.SHOULD, Expect.proceeds(),
                setup(ctx -> SetupFrame.v1(MpaSetupFrame.Kind.REQUEST, ctx.crc(), 0))));
        l.add(c("mpa.request.v2-no-h", S6581, "revision 2 without H (no IRD/ORD words) sets up and pings",
                Strictness.SHOULD, Expect.proceeds(), setup(ctx -> {
                    SetupFrame f = SetupFrame.v1(MpaSetupFrame.Kind.REQUEST, ctx.crc(), 0);
                    f.revision = 2;
                    return f;
                })));
        for (int rev : new int[] {0, 3, 255}) {
            l.add(c("mpa.request.rev" + rev, S711, "a Request of revision " + rev + " is refused",
                    Strictness.MUST, Expect.setupRefused(), setup(ctx -> {
                        SetupFrame f = RpingClientPeer.defaultRequest(ctx);
                        f.revision = rev;
                        return f;
                    })));
        }
        l.add(c("mpa.request.key.first-octet", S711, "a Request whose key differs in its first octet is refused",
                Strictness.MUST, Expect.setupRefused(), setup(ctx -> key(ctx, k -> k[0] ^= 0x20))));
        l.add(c("mpa.request.key.last-octet", S711, "a Request whose key differs in its last octet is refused",
                Strictness.MUST, Expect.setupRefused(), setup(ctx -> key(ctx, k -> k[15] ^= 0x01))));
        l.add(c("mpa.request.key.reply-key", S711, "a Request carrying the Reply key is refused",
                Strictness.MUST, Expect.setupRefused(), setup(ctx -> {
                    SetupFrame f = RpingClientPeer.defaultRequest(ctx);
                    f.key = MpaSetupFrame.Kind.REPLY.key();
                    return f;
                })));
        l.add(c("mpa.request.key.zeros", S711, "a Request whose key is 16 zero octets is refused",
                Strictness.MUST, Expect.setupRefused(), setup(ctx -> key(ctx, k -> Arrays.fill(k, (byte) 0)))));
        for (int bit : new int[] {0x01, 0x02, 0x04, 0x08}) {
            l.add(c(String.format("mpa.request.flags.reserved-0x%02x", bit), S711,
                    "a reserved flag bit in the Request is ignored", Strictness.MUST, Expect.proceeds(),
                    setup(ctx -> flag(RpingClientPeer.defaultRequest(ctx), bit))));
        }
        l.add(c("mpa.request.flags.m", S711 + " (M)", "a Request asking for markers sets up, with markers the target must insert correctly",
                Strictness.SHOULD, Expect.proceeds(), setup(ctx -> flag(RpingClientPeer.defaultRequest(ctx), SetupFrame.M))));
        l.add(c("mpa.request.flags.m-c", S711 + " (M, C)", "markers and CRC together",
                Strictness.SHOULD, Expect.proceeds(),
                setup(ctx -> flag(crc(RpingClientPeer.defaultRequest(ctx)), SetupFrame.M))));
        for (int pd : new int[] {4, 5, 256, 257, 511, 512}) {
            l.add(c("mpa.request.pd." + pd, S711 + " (PD_Length at most 512)",
                    pd + " octets of private data (IRD/ORD words included) are accepted",
                    Strictness.MUST, Expect.proceeds(), setup(ctx -> RpingClientPeer.defaultRequest(ctx).privateDataLength(pd))));
        }
        for (int pd : new int[] {513, 1024, 65535}) {
            l.add(c("mpa.request.pd." + pd, S711 + " (PD_Length at most 512)",
                    pd + " octets of private data are refused", Strictness.MUST, Expect.setupRefused(),
                    setup(ctx -> RpingClientPeer.defaultRequest(ctx).privateDataLength(pd))));
        }
        l.addAll(stalls());
        l.addAll(irdOrd());
        l.addAll(peerToPeer());
        l.addAll(timing());
        return l;
    }

    private static List<ConformCase> stalls() {
        List<ConformCase> l = new ArrayList<>();
        String rfc = "RFC 5044 section 7.1.5 (set-up timeout)";
        l.add(c("mpa.request.stall.nothing", rfc, "a client that connects and sends nothing is dropped",
                Strictness.SHOULD, Expect.connectionEnds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        return Terminates.observe(p.session(), ctx.stallTimeout());
                    }
                }));
        l.add(c("mpa.request.stall.half-header", rfc, "a client that sends 10 octets of a Request and stops is dropped",
                Strictness.SHOULD, Expect.connectionEnds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        p.session().send(Arrays.copyOf(RpingClientPeer.defaultRequest(ctx).encode(), 10));
                        return Terminates.observe(p.session(), ctx.stallTimeout());
                    }
                }));
        l.add(c("mpa.request.stall.short-private-data", rfc,
                "a Request whose PD_Length promises more private data than arrives is dropped", Strictness.SHOULD,
                Expect.connectionEnds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        SetupFrame f = RpingClientPeer.defaultRequest(ctx);
                        f.pdLength = 100;
                        p.session().send(f.encode());
                        return Terminates.observe(p.session(), ctx.stallTimeout());
                    }
                }));
        l.add(c("mpa.request.fin-after-half", "RFC 5044 section 7.1.5", "a Request cut by a FIN ends the connection",
                Strictness.MUST, Expect.connectionEnds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        p.session().send(Arrays.copyOf(RpingClientPeer.defaultRequest(ctx).encode(), 10));
                        p.session().fin();
                        return Terminates.observe(p.session(), ctx.timeout());
                    }
                }));
        l.add(c("mpa.request.rst-after-request", "RFC 5044 section 7.1.5", "a client that resets right after its Request "
                + "leaves the target serving the next client", Strictness.MUST, Expect.proceeds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        p.session().send(RpingClientPeer.defaultRequest(ctx).encode());
                        p.session().reset();
                    }
                    return setup(RpingClientPeer::defaultRequest).run(ctx);
                }));
        return l;
    }

    private static List<ConformCase> irdOrd() {
        List<ConformCase> l = new ArrayList<>();
        String rfc = "RFC 6581 section 5 (IRD/ORD)";
        l.add(c("mpa.request.ird-ord.0-0", rfc, "with our IRD 0 the target must not send us a Read Request "
                + "(it lowers its ORD, or ends with LLP/0/0x06)", Strictness.MUST,
                Expect.terminate(2, 0, 0x06).or(Kind.REJECTED, Kind.CLOSED, Kind.RESET, Kind.SILENT), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        Observation o = p.establish(RpingClientPeer.defaultRequest(ctx).words(MpaV2Words.of(0, 0)));
                        if (o != null) {
                            return o;
                        }
                        MpaV2Words w = p.reply.words();
                        if (w != null && w.ord() > 0) {
                            return Observation.of(Kind.VIOLATED, "the Reply's ORD " + w.ord() + " exceeds our IRD 0");
                        }
                        p.advertiseSource();
                        o = p.awaitReadRequest().instead();
                        return o == null ? Observation.of(Kind.VIOLATED, "a Read Request beyond our IRD 0") : o;
                    }
                }));
        l.add(c("mpa.request.ird-ord.max", rfc, "IRD and ORD 0x3FFF are negotiated down (or refused with LLP/0/0x06)",
                Strictness.MUST, Expect.proceeds().orTerminate(2, 0, 0x06).or(Kind.REJECTED),
                setup(ctx -> RpingClientPeer.defaultRequest(ctx).words(MpaV2Words.of(0x3FFF, 0x3FFF)))));
        l.add(c("mpa.request.ird-ord.1-0", rfc, "ORD 0 (we never Read) with IRD 1 sets up and pings",
                Strictness.MUST, Expect.proceeds(), setup(ctx -> RpingClientPeer.defaultRequest(ctx).words(MpaV2Words.of(1, 0)))));
        l.add(c("mpa.request.ird-ord.reply-within", rfc, "the Reply's ORD does not exceed our IRD 1",
                Strictness.MUST, Expect.proceeds(), ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        Observation o = p.establish(RpingClientPeer.defaultRequest(ctx));
                        if (o != null) {
                            return o;
                        }
                        MpaV2Words w = p.reply.words();
                        if (w == null) {
                            return Observation.of(Kind.VIOLATED, "a revision 2 Request with H was answered without IRD/ORD words: "
                                    + p.reply);
                        }
                        return w.ord() > 1 ? Observation.of(Kind.VIOLATED, "Reply ORD " + w.ord() + " > our IRD 1")
                                : p.proceeds();
                    }
                }));
        return l;
    }

    private static List<ConformCase> peerToPeer() {
        List<ConformCase> l = new ArrayList<>();
        String rfc = "RFC 6581 section 5 (peer-to-peer RTR)";
        Object[][] offers = {{"send", new RtrType[] {RtrType.SEND}}, {"write", new RtrType[] {RtrType.WRITE}},
                {"read", new RtrType[] {RtrType.READ}}, {"write-read", new RtrType[] {RtrType.WRITE, RtrType.READ}},
                {"all", new RtrType[] {RtrType.SEND, RtrType.WRITE, RtrType.READ}}};
        for (Object[] o : offers) {
            RtrType[] types = (RtrType[]) o[1];
            l.add(c("mpa.request.p2p." + o[0], rfc, "P2P offering " + o[0] + ": the Reply picks one offered type "
                    + "(or declines P2P, or refuses with LLP/0/0x07), our RTR goes first, the ping runs", Strictness.MUST,
                    Expect.proceeds().orTerminate(2, 0, 0x07).or(Kind.REJECTED), ctx -> {
                        try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                            Observation ob = p.establish(RpingClientPeer.defaultRequest(ctx).words(words(types)));
                            if (ob != null) {
                                return ob;
                            }
                            MpaV2Words w = p.reply.words();
                            if (w != null && w.p2p() && w.rtrCount() == 0) {
                                // no common type: RFC 6581 section 5 answers with LLP/0/0x07 after the Reply
                                return Terminates.observe(p.session(), ctx.timeout());
                            }
                            if (w != null && w.p2p() && w.rtrCount() != 1) {
                                return Observation.of(Kind.VIOLATED, "the Reply flags " + w.rtrCount() + " RTR types; "
                                        + "RFC 6581 asks for exactly one");
                            }
                            if (w != null && w.p2p() && !Arrays.asList(types).contains(p.chosenRtr())) {
                                return Observation.of(Kind.VIOLATED, "the Reply picks " + p.chosenRtr() + ", not offered");
                            }
                            return p.proceeds();
                        }
                    }));
        }
        l.add(c("mpa.request.p2p.none", rfc, "P2P with no RTR type offered: declined, or LLP/0/0x07",
                Strictness.MUST, Expect.proceeds().orTerminate(2, 0, 0x07).or(Kind.REJECTED),
                setup(ctx -> RpingClientPeer.defaultRequest(ctx).words(new MpaV2Words(1, 1, true, false, false, false)))));
        return l;
    }

    private static List<ConformCase> timing() {
        List<ConformCase> l = new ArrayList<>();
        String rfc = "RFC 5044 section 7.1.2 (no FPDU before the Reply)";
        Expect e = Expect.setupRefused();
        l.add(c("mpa.timing.fpdu-behind-request", rfc, "an FPDU in the Request's own segment is refused",
                Strictness.SHOULD, e, ctx -> {
                    try (RpingClientPeer p = RpingClientPeer.connect(ctx)) {
                        SetupFrame req = RpingClientPeer.defaultRequest(ctx);
                        byte[] fpdu = io.jrnic.conform.wire.Session.Framing.fpdu(Ulpdus.send(1, p.sourceDescriptor()),
                                34, (byte) 0, true);
                        byte[] r = req.encode();
                        byte[] both = Arrays.copyOf(r, r.length + fpdu.length);
                        System.arraycopy(fpdu, 0, both, r.length, fpdu.length);
                        Observation o = p.establish(req, both);
                        return o != null ? o : Terminates.observe(p.session(), ctx.timeout());
                    }
                }));
        // an FPDU sent after the Request in a segment of its own is not a case: the target may have sent its
        // Reply before the FPDU arrived, and then the FPDU is legal (the two cross on the wire)
        return l;
    }

    private static MpaV2Words words(RtrType[] types) {
        List<RtrType> t = Arrays.asList(types);
        return new MpaV2Words(1, 1, true, t.contains(RtrType.SEND), t.contains(RtrType.WRITE), t.contains(RtrType.READ));
    }

    private interface KeyEdit {
        void edit(byte[] key);
    }

    private static SetupFrame key(io.jrnic.conform.CaseContext ctx, KeyEdit edit) {
        SetupFrame f = RpingClientPeer.defaultRequest(ctx);
        edit.edit(f.key);
        return f;
    }

    static SetupFrame crc(SetupFrame f) {
        f.flags |= SetupFrame.C;
        return f;
    }

    static SetupFrame flag(SetupFrame f, int bit) {
        f.flags |= bit;
        return f;
    }

}
