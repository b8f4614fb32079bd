package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Initiator.afterSetup;
import static io.jrnic.conform.cases.Initiator.c;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Observation.Kind;
import io.jrnic.conform.Script;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingClientPeer;
import io.jrnic.conform.rping.Step;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.Session.Framing;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/** FPDU framing (RFC 5044 sections 4 to 6): CRC, markers, segmentation, ULPDU_Length, pad. */
final class FramingCases {
    private static final Expect CRC_ERROR = Expect.terminate(2, 0, 0x02);

    private FramingCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        String crc = "RFC 5044 section 4.4 (CRC)";
        l.add(c("mpa.crc.bad.send", crc, "a Send whose CRC is off by one bit is terminated with LLP/0/0x02",
                Strictness.MUST, CRC_ERROR, withCrc(p -> p.session().send(Framing.fpdu(
                        Ulpdus.send(p.sendMsn, p.sourceDescriptor()), 34, (byte) 0, false)), false)));
        l.add(c("mpa.crc.zero.send", crc, "a Send with a zero CRC field on a CRC stream is terminated with LLP/0/0x02",
                Strictness.MUST, CRC_ERROR, withCrc(p -> {
                    byte[] f = Framing.fpdu(Ulpdus.send(p.sendMsn, p.sourceDescriptor()), 34, (byte) 0, true);
                    f[f.length - 1] = f[f.length - 2] = f[f.length - 3] = f[f.length - 4] = 0;
                    p.session().send(f);
                }, false)));
        l.add(c("mpa.crc.bad.read-response", crc, "a Read Response with a bad CRC is terminated with LLP/0/0x02",
                Strictness.MUST, CRC_ERROR, Initiator.opened(ctx -> MpaRequestCases.crc(RpingClientPeer.defaultRequest(ctx)), 0,
                        (ctx, p) -> {
                            p.advertiseSource();
                            Step s = p.awaitReadRequest();
                            if (!s.ok()) {
                                return Initiator.notReached(s.instead());
                            }
                            ByteBuf rr = p.readResponse();
                            p.session().send(Framing.fpdu(rr, rr.readableBytes(), (byte) 0, false));
                            return Terminates.observe(p.session(), ctx.timeout());
                        })));
        l.add(c("mpa.crc.bad.write", crc, "an RDMA Write with a bad CRC is terminated with LLP/0/0x02 (and not placed)",
                Strictness.MUST, CRC_ERROR, withCrc(p -> p.session().send(badCrc(
                        Ulpdus.write(p.targetStag, p.targetTo, new byte[8]))), true)));
        l.add(c("mpa.crc.bad.read-request", crc, "a Read Request with a bad CRC is terminated with LLP/0/0x02",
                Strictness.MUST, CRC_ERROR, withCrc(p -> p.session().send(badCrc(Ulpdus.readRequest(p.readMsn,
                        RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, 8, p.targetStag, p.targetTo))), true)));
        l.add(c("mpa.crc.off.not-checked", crc + " (C clear both ways)",
                "without CRC negotiated the CRC field is not checked", Strictness.MUST, Expect.proceeds(), ctx -> {
                    RpingClientPeer[] p = new RpingClientPeer[1];
                    try {
                        p[0] = RpingClientPeer.connect(ctx);
                        SetupFrame req = RpingClientPeer.defaultRequest(ctx);
                        req.flags &= ~SetupFrame.C;
                        Observation o = p[0].establish(req);
                        if (o != null) {
                            return Initiator.notReached(o);
                        }
                        if (p[0].crc) {
                            return Observation.of(Kind.NOT_APPLICABLE, "the target asked for CRC in its Reply");
                        }
                        p[0].session().send(Framing.fpdu(Ulpdus.send(p[0].sendMsn++, p[0].sourceDescriptor()), 34,
                                (byte) 0, false));
                        Step s = p[0].awaitReadRequest();
                        return s.ok() ? Observation.of(Kind.PROCEEDED, "the Send with a wrong CRC field was taken") : s.instead();
                    } finally {
                        Initiator.close(p[0]);
                    }
                }));
        String markers = "RFC 5044 section 5 (markers)";
        l.add(c("mpa.markers.bad-fpduptr", markers, "a marker whose FPDUPTR does not point at the FPDU start is "
                + "terminated with LLP/0/0x03", Strictness.MUST, Expect.terminate(2, 0, 0x03), ctx -> {
                    RpingClientPeer[] p = new RpingClientPeer[1];
                    try {
                        p[0] = RpingClientPeer.connect(ctx);
                        SetupFrame req = RpingClientPeer.defaultRequest(ctx);
                        req.flags |= SetupFrame.M;
                        Observation o = p[0].establish(req);
                        if (o != null) {
                            return o.kind() == Kind.REJECTED ? Observation.of(Kind.NOT_APPLICABLE,
                                    "the target refuses markers") : Initiator.notReached(o);
                        }
                        if (!p[0].session().framing().markers()) {
                            return Observation.of(Kind.NOT_APPLICABLE, "the target does not ask for markers (M in its Reply)");
                        }
                        byte[] f = p[0].session().framing().fpdu(Ulpdus.send(p[0].sendMsn++, p[0].sourceDescriptor()));
                        f[3] ^= 0x04;  // the leading marker at stream offset 0: FPDUPTR 0 becomes 4
                        p[0].session().send(f);
                        return Terminates.observe(p[0].session(), ctx.timeout());
                    } finally {
                        Initiator.close(p[0]);
                    }
                }));
        String seg = "RFC 5044 section 6 (FPDUs across TCP segments)";
        for (int n : new int[] {1, 2, 3, 7}) {
            l.add(c("mpa.segments." + n, seg, "a whole ping with every FPDU cut into " + n + "-octet TCP segments",
                    Strictness.MUST, Expect.proceeds(), Initiator.opened(0, (ctx, p) -> {
                        p.session().splitFpdus(n);
                        return p.proceeds();
                    })));
        }
        l.add(c("mpa.segments.coalesced", seg, "two FPDUs in one TCP segment (a Write and a Send) are both taken",
                Strictness.MUST, Expect.proceeds(), Initiator.afterPing(p -> {
                    byte[] a = p.session().framing().fpdu(Ulpdus.write(p.targetStag, p.targetTo, new byte[8]));
                    byte[] b = p.session().framing().fpdu(Ulpdus.send(p.sendMsn++, p.sourceDescriptor()));
                    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
                    System.arraycopy(b, 0, both, a.length, b.length);
                    p.session().send(both);
                })));
        String len = "RFC 5044 section 4.1 (ULPDU_Length) and RFC 5041 section 4";
        for (int n : new int[] {0, 1, 13, 17}) {
            l.add(c("mpa.ulpdu-length." + n, len, "an FPDU whose ULPDU of " + n + " octets cannot hold a DDP header "
                    + "is terminated by DDP or MPA", Strictness.MUST, Expect.terminate(1, -1, -1).orTerminate(2, -1, -1),
                    afterSetup(p -> {
                        ByteBuf u = Ulpdus.send(p.sendMsn, p.sourceDescriptor());
                        u.writerIndex(n);
                        p.session().sendUlpdu(u);
                    })));
        }
        l.add(c("mpa.ulpdu-length.field-short", len, "a ULPDU_Length 14 octets short of the ULPDU ends the connection",
                Strictness.MUST, Expect.connectionEnds(), afterSetup(p -> p.session().send(Framing.fpdu(
                        Ulpdus.send(p.sendMsn, p.sourceDescriptor()), 20, (byte) 0, true)))));
        l.add(c("mpa.pad.nonzero", "RFC 5044 section 4.1 (PAD)", "non-zero pad octets (covered by a valid CRC) are "
                + "not checked", Strictness.MUST, Expect.proceeds(), Initiator.opened(0, (ctx, p) -> {
                    p.advertiseSource();
                    Step s = p.awaitReadRequest();
                    if (!s.ok()) {
                        return Initiator.notReached(s.instead());
                    }
                    ByteBuf rr = p.readResponse();
                    if (((2 + rr.readableBytes()) & 3) == 0) {
                        rr.release();
                        return Observation.of(Kind.NOT_APPLICABLE, "the Read Response needs no pad");
                    }
                    p.session().send(Framing.fpdu(rr, rr.readableBytes(), (byte) 0xA5, true));
                    Observation f = p.finishPing();
                    return f != null ? f : Observation.of(Kind.PROCEEDED, "ping completed");
                })));
        return l;
    }

    /** The FPDU of this ULPDU with its CRC off by one bit. */
    static byte[] badCrc(ByteBuf ulpdu) {
        return Framing.fpdu(ulpdu, ulpdu.readableBytes(), (byte) 0, false);
    }

    /** Sets up with C forced, optionally pings first, injects, watches. */
    private static Script withCrc(Initiator.Injection i, boolean pingFirst) {
        return Initiator.opened(ctx -> MpaRequestCases.crc(RpingClientPeer.defaultRequest(ctx)), pingFirst ? 1 : 0,
                Initiator.watch(i));
    }

}
