package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Responder.afterDescriptor;
import static io.jrnic.conform.cases.Responder.c;
import static io.jrnic.conform.cases.Responder.validAfterDescriptor;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Observation;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.rping.RpingServerPeer;
import io.jrnic.conform.rping.Step;
import io.jrnic.conform.rping.Terminates;
import io.jrnic.conform.wire.Session;
import io.jrnic.conform.wire.SetupFrame;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.ddp.DdpControl;
import io.jrnic.rdmap.RdmapOpcode;
import java.util.ArrayList;
import java.util.List;

/** Malformed traffic from a server to the target's client (RFC 5044 framing, RFC 5041, RFC 5040). */
final class ToClientCases {
    private static final String TAGGED = "RFC 5041 section 7.1 (tagged buffer errors)";
    private static final String UNTAGGED = "RFC 5041 section 7.2 (untagged buffer errors)";
    private static final String PROT = "RFC 5040 section 7.1 (remote protection errors)";

    private ToClientCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        int send = Ulpdus.control(RdmapOpcode.SEND, true);
        l.add(c("ddp.to-client.write.stag-invalid", TAGGED, "an RDMA Write to an STag the client never advertised is "
                + "terminated with DDP/1/0x00", Strictness.MUST, Expect.terminate(1, 1, 0x00),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.write(DdpCases.foreign(p.clientStag), p.clientTo, new byte[8])))));
        l.add(c("ddp.to-client.write.bounds", TAGGED, "an RDMA Write 1 MiB past the client's buffer is terminated with "
                + "DDP/1/0x01", Strictness.MUST, Expect.terminate(1, 1, 0x01),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.write(p.clientStag, p.clientTo + (1 << 20), new byte[8])))));
        l.add(c("ddp.to-client.write.valid", "RFC 5041 section 5.2 (tagged placement)", "an RDMA Write inside the client's "
                + "advertised buffer is placed silently and the ping completes", Strictness.MUST, Expect.proceeds(),
                validAfterDescriptor(p -> p.session().sendUlpdu(Ulpdus.write(p.clientStag, p.clientTo, new byte[8])))));
        l.add(c("rdmap.to-client.read.stag-invalid", PROT, "a Read Request of an STag the client never advertised is "
                + "terminated with RDMAP/1/0x00", Strictness.MUST, Expect.terminate(0, 1, 0x00),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.readRequest(p.readMsn++, RpingServerPeer.SINK_STAG,
                        RpingServerPeer.SINK_TO, 8, DdpCases.foreign(p.clientStag), p.clientTo)))));
        l.add(c("rdmap.to-client.read.bounds", PROT, "a Read Request past the client's buffer is terminated with RDMAP/1/0x01",
                Strictness.MUST, Expect.terminate(0, 1, 0x01),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.readRequest(p.readMsn++, RpingServerPeer.SINK_STAG,
                        RpingServerPeer.SINK_TO, 8, p.clientStag, p.clientTo + (1 << 20))))));
        l.add(c("ddp.to-client.msn-ahead", UNTAGGED, "a go-ahead Send with MSN 5 (1 is due) is terminated with DDP/2/0x03",
                Strictness.MUST, Expect.terminate(1, 2, 0x03),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.send(5, new byte[16])))));
        l.add(c("ddp.to-client.too-long", UNTAGGED, "a 64-octet Send into the client's 16-octet receive buffer is "
                + "terminated with DDP/2/0x05", Strictness.MUST, Expect.terminate(1, 2, 0x05),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.send(p.sendMsn, new byte[64])))));
        l.add(c("ddp.to-client.qn4", UNTAGGED, "a Send on queue 4 is terminated with DDP/2/0x01", Strictness.MUST,
                Expect.terminate(1, 2, 0x01), afterDescriptor(p -> p.session().sendUlpdu(
                        Ulpdus.untagged(send, 0, 4, p.sendMsn, 0, new byte[0], new byte[16])))));
        l.add(c("ddp.to-client.version0", "RFC 5041 section 4.2 (DV)", "a Send with DDP version 0 is terminated with "
                + "DDP/2/0x06", Strictness.MUST, Expect.terminate(1, 2, 0x06), afterDescriptor(p -> p.session().sendUlpdu(
                        Ulpdus.untagged(DdpCases.withDv(send, 0), 0, 0, p.sendMsn, 0, new byte[0], new byte[16])))));
        l.add(c("rdmap.to-client.version0", "RFC 5040 section 4.3 (RV)", "a Send with RDMAP version 0 is terminated with "
                + "RDMAP/2/0x05", Strictness.MUST, Expect.terminate(0, 2, 0x05), afterDescriptor(p -> p.session().sendUlpdu(
                        Ulpdus.untagged(DdpCases.withRv(send, 0), 0, 0, p.sendMsn, 0, new byte[0], new byte[16])))));
        l.add(c("rdmap.to-client.opcode.0xc", "RFC 5040 section 7.2 (remote operation errors)", "reserved opcode 0xC is "
                + "terminated with RDMAP/2/0x06", Strictness.MUST, Expect.terminate(0, 2, 0x06),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.untagged(DdpControl.compose(false, true, (1 << 6) | 0xC),
                        0, 0, p.sendMsn, 0, new byte[0], new byte[0])))));
        l.add(c("rdmap.to-client.read-response.unsolicited", "RFC 5040 section 4.5 (RDMA Read Response)", "a Read Response "
                + "the client never asked for is terminated", Strictness.SHOULD, Expect.terminate(0, 2, -1),
                afterDescriptor(p -> p.session().sendUlpdu(Ulpdus.readResponse(p.clientStag, p.clientTo, new byte[8])))));
        l.add(c("rdmap.to-client.terminate.rfc", "RFC 5040 section 5.4", "a Terminate makes the client close, with no "
                + "Terminate back", Strictness.MUST, Expect.closes(),
                afterDescriptor(p -> p.session().sendUlpdu(RdmapCases.terminate(0x02, 0xFF, 0, false)))));
        l.add(c("rdmap.to-client.terminate.siw-layout", "RFC 5040 section 5.4", "a Terminate in siw's bitfield layout makes "
                + "the client close", Strictness.MUST, Expect.closes(),
                afterDescriptor(p -> p.session().sendUlpdu(RdmapCases.terminate(0x20, 0xFF, 0, false)))));
        l.add(c("mpa.to-client.crc.bad", "RFC 5044 section 4.4 (CRC)", "a go-ahead Send with a bad CRC on a CRC stream is "
                + "terminated with LLP/0/0x02", Strictness.MUST, Expect.terminate(2, 0, 0x02), ctx -> {
                    try (RpingServerPeer p = RpingServerPeer.accept(ctx)) {
                        Observation o = p.awaitRequest();
                        if (o != null) {
                            return o;
                        }
                        SetupFrame f = p.defaultReply();
                        f.flags |= SetupFrame.C;
                        o = p.reply(f);
                        Step s = o == null ? p.awaitSourceDescriptor() : null;
                        if (o != null || !s.ok()) {
                            return Initiator.notReached(o != null ? o : s.instead());
                        }
                        o = p.readSource();
                        if (o != null) {
                            return Initiator.notReached(o);
                        }
                        p.session().send(Session.Framing.fpdu(Ulpdus.send(p.sendMsn, new byte[16]), 34, (byte) 0, false));
                        return Terminates.observe(p.session(), ctx.timeout());
                    }
                }));
        for (int n : new int[] {1, 3}) {
            l.add(c("mpa.to-client.segments." + n, "RFC 5044 section 6 (FPDUs across TCP segments)", "a whole ping with every "
                    + "server FPDU cut into " + n + "-octet TCP segments", Strictness.MUST, Expect.proceeds(), ctx -> {
                        try (RpingServerPeer p = RpingServerPeer.accept(ctx)) {
                            Observation o = p.awaitRequest();
                            if (o != null) {
                                return o;
                            }
                            o = p.reply(p.defaultReply());
                            if (o != null) {
                                return o;
                            }
                            p.session().splitFpdus(n);
                            return p.proceeds();
                        }
                    }));
        }
        l.add(c("teardown.to-client.fin", "RFC 5040 section 5.4", "a FIN from the server mid-ping makes the client close",
                Strictness.SHOULD, Expect.connectionEnds(), afterDescriptor(p -> p.session().fin())));
        return l;
    }
}
