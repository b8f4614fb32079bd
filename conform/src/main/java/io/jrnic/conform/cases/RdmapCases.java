package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Initiator.afterPing;
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
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.ddp.DdpControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** RDMAP (RFC 5040, RFC 7306): versions, opcodes, Read Requests and Responses, Send with Invalidate, Terminate. */
final class RdmapCases {
    private static final String OPS = "RFC 5040 section 7.2 (remote operation errors)";
    private static final String PROT = "RFC 5040 section 7.1 (remote protection errors)";

    private RdmapCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        int send = Ulpdus.control(RdmapOpcode.SEND, true);
        for (int rv : new int[] {0, 2, 3}) {
            l.add(c("rdmap.version." + rv, "RFC 5040 section 4.3 (RV)", "a Send with RDMAP version " + rv
                    + " is terminated with RDMAP/2/0x05", Strictness.MUST, Expect.terminate(0, 2, 0x05),
                    afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(DdpCases.withRv(send, rv), 0, 0, p.sendMsn, 0,
                            new byte[0], p.sourceDescriptor())))));
        }
        l.add(c("rdmap.reserved-bits", "RFC 5040 section 4.3 (Rsvd: not checked on receive)",
                "a Send with the RDMAP reserved bits set is taken", Strictness.MUST, Expect.proceeds(),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(send | DdpControl.RDMAP_RESERVED_MASK, 0, 0,
                        p.sendMsn++, 0, new byte[0], p.sourceDescriptor())))));
        for (int op = 0x8; op <= 0xF; op++) {
            int code = op;
            RdmapOpcode known = RdmapOpcode.fromCode(op);
            int qn = known != null ? known.queueNumber() : 0;
            String what = known != null ? known.rfcName() + " (RFC 7306, not negotiated)" : "reserved opcode 0x" + Integer.toHexString(op);
            byte[] extra = new byte[known != null ? known.extraHeaderLength() : 0];
            Expect e = Expect.terminate(0, 2, 0x06);
            // RFC 7306's opcodes are legal where the stack implements it (RFC 7306 section 8 leaves their use to the
            // ULP): a stack that takes them deviates from the strict reading, it does not break the RFC
            Strictness strict = known != null ? Strictness.SHOULD : Strictness.MUST;
            if (qn == 3) {
                e.orTerminate(1, 2, 0x01);   // atomic responses' queue need not exist without RFC 7306
            }
            l.add(c(String.format("rdmap.opcode.0x%x", op), OPS, what + " on QN " + qn + " is terminated with RDMAP/2/0x06",
                    strict, e, afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(
                            DdpControl.compose(false, true, (1 << 6) | code), 0, qn, 1, 0, extra, new byte[0])))));
        }
        l.add(c("rdmap.opcode.write-untagged", OPS, "an RDMA Write opcode in an untagged segment is terminated with "
                + "RDMAP/2/0x06", Strictness.SHOULD, Expect.terminate(0, 2, 0x06),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(DdpControl.compose(false, true, 1 << 6), 0, 0,
                        p.sendMsn, 0, new byte[0], p.sourceDescriptor())))));
        l.add(c("rdmap.opcode.send-tagged", OPS, "a Send opcode in a tagged segment is terminated with RDMAP/2/0x06",
                Strictness.SHOULD, Expect.terminate(0, 2, 0x06),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.tagged(DdpControl.compose(true, true, (1 << 6) | 3),
                        p.targetStag, p.targetTo, new byte[8])))));
        l.addAll(reads());
        l.addAll(atomics());
        l.addAll(readResponses());
        l.addAll(invalidates());
        l.addAll(terminates());
        return l;
    }

    /**
     * RFC 7306 Atomic Requests against the buffer rping advertises, which is registered for remote reads and writes
     * only: a stack with atomics refuses on rights (or alignment, or the operation), one without refuses the opcode.
     */
    private static List<ConformCase> atomics() {
        List<ConformCase> l = new ArrayList<>();
        String at = "RFC 7306 section 8.1.1 (Atomic Request)";
        l.add(c("rdmap.atomic.no-rights", at + ", RFC 5040 section 7.1", "a Fetch-and-Add on the rping buffer (no remote "
                + "atomic right) is terminated with RDMAP/1/0x02, or RDMAP/2/0x06 by a stack without atomics",
                Strictness.MUST, Expect.terminate(0, 1, 0x02).orTerminate(0, 2, 0x06),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.atomicRequest(p.readMsn, 0x0, 1, p.targetStag,
                        aligned(p.targetTo), 1)))));
        l.add(c("rdmap.atomic.misaligned", at, "a Fetch-and-Add at an odd TO is terminated (RDMAP/1: bounds or rights; "
                + "RDMAP/2/0x06 without atomics)", Strictness.MUST,
                Expect.terminate(0, 1, 0x01).orTerminate(0, 1, 0x02).orTerminate(0, 2, 0x06),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.atomicRequest(p.readMsn, 0x0, 1, p.targetStag,
                        aligned(p.targetTo) + 1, 1)))));
        l.add(c("rdmap.atomic.reserved-operation", at, "an Atomic Request with the reserved operation code 1 is "
                + "terminated (RDMAP/2, or RDMAP/1 when rights are checked first)", Strictness.MUST,
                Expect.terminate(0, 2, -1).orTerminate(0, 1, -1),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.atomicRequest(p.readMsn, 0x1, 1, p.targetStag,
                        aligned(p.targetTo), 1)))));
        l.add(c("rdmap.atomic.stag-invalid", PROT, "a Compare-and-Swap on an STag the target never advertised is "
                + "terminated with RDMAP/1/0x00, or RDMAP/2/0x06 by a stack without atomics", Strictness.MUST,
                Expect.terminate(0, 1, 0x00).orTerminate(0, 2, 0x06),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.atomicRequest(p.readMsn, 0x2, 1,
                        DdpCases.foreign(p.targetStag), aligned(p.targetTo), 1)))));
        return l;
    }

    /** The first 8-aligned TO at or after {@code to} (inside rping's buffer, which is far longer than 8). */
    private static long aligned(long to) {
        return (to + 7) & ~7L;
    }

    private static List<ConformCase> reads() {
        List<ConformCase> l = new ArrayList<>();
        String rr = "RFC 5040 section 4.4 (RDMA Read Request)";
        l.add(c("rdmap.read.valid", rr, "a Read Request of 8 octets of the target's buffer is answered",
                Strictness.MUST, Expect.proceeds(), readThenWait(p -> read(p, p.targetStag, p.targetTo, 8))));
        l.add(c("rdmap.read.zero-length", rr, "a zero-length Read Request gets a zero-length Read Response",
                Strictness.MUST, Expect.proceeds(), readThenWait(p -> read(p, p.targetStag, p.targetTo, 0))));
        l.add(c("rdmap.read.stag.invalid", PROT, "a Read Request of an STag the target never advertised is "
                + "terminated with RDMAP/1/0x00", Strictness.MUST, Expect.terminate(0, 1, 0x00),
                afterPing(p -> read(p, DdpCases.foreign(p.targetStag), p.targetTo, 8))));
        l.add(c("rdmap.read.bounds.above", PROT, "a Read Request 1 MiB past the buffer is terminated with RDMAP/1/0x01",
                Strictness.MUST, Expect.terminate(0, 1, 0x01), afterPing(p -> read(p, p.targetStag, p.targetTo + (1 << 20), 8))));
        l.add(c("rdmap.read.bounds.size", PROT, "a Read Request of 0x7FFFFFFF octets is terminated with RDMAP/1/0x01",
                Strictness.MUST, Expect.terminate(0, 1, 0x01), afterPing(p -> read(p, p.targetStag, p.targetTo, 0x7FFFFFFF))));
        l.add(c("rdmap.read.to-wrap", PROT, "a Read Request whose TO + size wraps 2^64 is terminated with RDMAP/1/0x04 "
                + "(or 0x01: that TO also lies outside the buffer)", Strictness.MUST,
                Expect.terminate(0, 1, 0x04).orTerminate(0, 1, 0x01), afterPing(p -> read(p, p.targetStag, -16L, 64))));
        l.add(c("rdmap.read.msn", "RFC 5041 section 7.2", "a Read Request with MSN 5 (1 is due on QN 1) is terminated "
                + "with DDP/2/0x03", Strictness.MUST, Expect.terminate(1, 2, 0x03), afterPing(p ->
                        p.session().sendUlpdu(Ulpdus.readRequest(5, RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, 8,
                                p.targetStag, p.targetTo)))));
        l.add(c("rdmap.read.on-qn0", OPS, "a Read Request on the Send queue is terminated with RDMAP/2/0x06",
                Strictness.SHOULD, Expect.terminate(0, 2, 0x06), afterPing(p -> p.session().sendUlpdu(Ulpdus.untagged(
                        Ulpdus.control(RdmapOpcode.RDMA_READ_REQUEST, true), 0, 0, p.sendMsn, 0,
                        Ulpdus.readRequestHeader(RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, 8, p.targetStag,
                                p.targetTo), new byte[0])))));
        l.add(c("rdmap.read.ulpdu-long", rr, "a Read Request with 4 octets after its 28-octet header is terminated "
                + "(RDMAP/2 or DDP/2)", Strictness.MUST, Expect.terminate(0, 2, -1).orTerminate(1, 2, -1),
                afterPing(p -> {
                    ByteBuf u = Ulpdus.readRequest(p.readMsn, RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, 8,
                            p.targetStag, p.targetTo);
                    u.writeInt(0);
                    p.session().sendUlpdu(u);
                })));
        l.add(c("rdmap.read.ulpdu-short", rr, "a Read Request cut 8 octets short of its header is terminated "
                + "(RDMAP/2 or DDP/2)", Strictness.MUST, Expect.terminate(0, 2, -1).orTerminate(1, 2, -1),
                afterPing(p -> {
                    ByteBuf u = Ulpdus.readRequest(p.readMsn, RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, 8,
                            p.targetStag, p.targetTo);
                    u.writerIndex(u.writerIndex() - 8);
                    p.session().sendUlpdu(u);
                })));
        return l;
    }

    private static List<ConformCase> readResponses() {
        List<ConformCase> l = new ArrayList<>();
        String resp = "RFC 5040 section 4.5 (RDMA Read Response)";
        l.add(c("rdmap.read-response.unsolicited", resp, "a Read Response with no Read Request outstanding is terminated",
                Strictness.SHOULD, Expect.terminate(0, 2, -1), afterPing(p -> p.session().sendUlpdu(
                        Ulpdus.readResponse(p.targetStag, p.targetTo, new byte[8])))));
        l.add(c("rdmap.read-response.wrong-stag", TAGGED(), "a Read Response to an STag other than the Read Request's "
                + "sink is terminated with DDP/1/0x00", Strictness.MUST, Expect.terminate(1, 1, 0x00),
                answerRead(p -> Ulpdus.readResponse(DdpCases.foreign(p.targetStag), p.targetTo,
                        RpingClientPeer.pingText(0, (int) p.targetReadSize)))));
        l.add(c("rdmap.read-response.too-long", TAGGED(), "a 16 KiB Read Response to a 62-octet Read Request is "
                + "terminated with DDP/1/0x01", Strictness.MUST, Expect.terminate(1, 1, 0x01),
                answerRead(p -> Ulpdus.readResponse(p.targetStag, p.targetTo, new byte[16384]))));
        l.add(c("rdmap.read-response.short", resp, "a Read Response shorter than the Read Request's size is terminated",
                Strictness.SHOULD, Expect.terminate(-1, -1, -1),
                answerRead(p -> Ulpdus.readResponse(p.targetStag, p.targetTo, new byte[10]))));
        return l;
    }

    private static List<ConformCase> invalidates() {
        List<ConformCase> l = new ArrayList<>();
        String inv = "RFC 5040 section 6.10 (Send with Invalidate)";
        for (RdmapOpcode op : new RdmapOpcode[] {RdmapOpcode.SEND_WITH_INVALIDATE, RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE}) {
            String n = op == RdmapOpcode.SEND_WITH_INVALIDATE ? "send-inv" : "send-se-inv";
            l.add(c("rdmap." + n + ".invalid-stag", inv, op.rfcName() + " naming an unknown STag is terminated "
                    + "with RDMAP/1/0x00 (or 0x09)", Strictness.MUST,
                    Expect.terminate(0, 1, 0x00).orTerminate(0, 1, 0x09).orTerminate(0, 2, 0x09),
                    afterSetup(p -> p.session().sendUlpdu(Ulpdus.send(op, DdpCases.FOREIGN_STAG, p.sendMsn,
                            p.sourceDescriptor())))));
        }
        l.add(c("rdmap.send-se.valid", "RFC 5040 section 4.1 (Send with Solicited Event)", "the ping's first Send as a "
                + "Send with Solicited Event is taken", Strictness.MUST, Expect.proceeds(),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.send(RdmapOpcode.SEND_WITH_SE, 0, p.sendMsn++,
                        p.sourceDescriptor())))));
        return l;
    }

    private static List<ConformCase> terminates() {
        List<ConformCase> l = new ArrayList<>();
        String term = "RFC 5040 section 5.4 (Terminate ends the stream; no Terminate answers a Terminate)";
        Expect closes = Expect.connectionEnds();
        l.add(c("rdmap.terminate.rfc", term, "a Terminate (RDMAP/2/0xFF, RFC layout) makes the target close",
                Strictness.MUST, closesWithoutTerminate(),
                afterPing(p -> p.session().sendUlpdu(terminate(0x02, 0xFF, 0, false)))));
        l.add(c("rdmap.terminate.siw-layout", term, "a Terminate in siw's little-endian bitfield layout makes the "
                + "target close", Strictness.MUST, closesWithoutTerminate(),
                afterPing(p -> p.session().sendUlpdu(terminate(0x20, 0xFF, 0, false)))));
        l.add(c("rdmap.terminate.with-ddp-header", term, "a Terminate carrying a terminated DDP header makes the "
                + "target close", Strictness.MUST, closesWithoutTerminate(),
                afterPing(p -> p.session().sendUlpdu(terminate(0x12, 0x03, 0x40, true)))));
        l.add(c("rdmap.terminate.malformed", term, "a Terminate whose D flag promises a header that is not there "
                + "ends the connection", Strictness.MUST, closes,
                afterPing(p -> p.session().sendUlpdu(terminate(0x12, 0x03, 0x40, false)))));
        l.add(c("rdmap.terminate.then-read", term, "after our Terminate the target answers no Read Request",
                Strictness.MUST, closesWithoutTerminate(), afterPing(p -> {
                    ByteBuf a = terminate(0x02, 0xFF, 0, false);
                    byte[] f1 = p.session().framing().fpdu(a);
                    byte[] f2 = p.session().framing().fpdu(Ulpdus.readRequest(p.readMsn, RpingClientPeer.SINK_STAG,
                            RpingClientPeer.SINK_TO, 8, p.targetStag, p.targetTo));
                    byte[] both = Arrays.copyOf(f1, f1.length + f2.length);
                    System.arraycopy(f2, 0, both, f1.length, f2.length);
                    p.session().send(both);
                })));
        return l;
    }

    /** The reaction to a Terminate: close or reset; a Terminate back is a deviation, silence a failure. */
    private static Expect closesWithoutTerminate() {
        return Expect.closes();
    }

    private static String TAGGED() {
        return "RFC 5041 section 7.1 (tagged buffer errors)";
    }

    /** A Terminate ULPDU: byte 0 (layer and type as the layout puts them), code, flag byte, and with
     *  {@code ddpHeader} a 2-octet segment length and an untagged DDP header attached. */
    static ByteBuf terminate(int byte0, int code, int flags, boolean ddpHeader) {
        byte[] ctl = {(byte) byte0, (byte) code, (byte) flags, 0};
        byte[] att = new byte[0];
        if (ddpHeader) {
            ByteBuf h = Ulpdus.send(1, new byte[0]);
            att = new byte[20];
            att[0] = 0;
            att[1] = 34;
            h.readBytes(att, 2, 18);
            h.release();
        }
        byte[] extra = Arrays.copyOf(ctl, 4 + att.length);
        System.arraycopy(att, 0, extra, 4, att.length);
        return Ulpdus.untagged(Ulpdus.control(RdmapOpcode.TERMINATE, true), 0, RdmapOpcode.QN_TERMINATE, 1, 0, extra,
                new byte[0]);
    }

    static void read(RpingClientPeer p, int stag, long to, long size) throws java.io.IOException {
        p.session().sendUlpdu(Ulpdus.readRequest(p.readMsn++, RpingClientPeer.SINK_STAG, RpingClientPeer.SINK_TO, size,
                stag, to));
    }

    /** After a ping, sends a (valid) Read Request and expects its Read Response. */
    private static Script readThenWait(Initiator.Injection i) {
        return Initiator.opened(1, (ctx, p) -> {
            i.inject(p);
            Step s = p.await(RdmapOpcode.RDMA_READ_RESPONSE);
            if (!s.ok()) {
                return s.instead();
            }
            ByteBuf b = Unpooled.wrappedBuffer(s.ulpdu());
            int stag = b.getInt(2);
            return stag != RpingClientPeer.SINK_STAG ? Observation.of(Kind.VIOLATED, String.format(
                    "the Read Response names STag 0x%08x, not the Read Request's sink 0x%08x", stag,
                    RpingClientPeer.SINK_STAG)) : Observation.of(Kind.PROCEEDED, "Read Response of "
                    + (s.ulpdu().length - 14) + " octets");
        });
    }

    /** A Read Response builder for {@link #answerRead}. */
    @FunctionalInterface
    interface Response {
        ByteBuf build(RpingClientPeer p);
    }

    /** Sets up, sends the descriptor, answers the target's Read Request with the given Read Response. */
    private static Script answerRead(Response r) {
        return Initiator.opened(0, (ctx, p) -> {
            p.advertiseSource();
            Step s = p.awaitReadRequest();
            if (!s.ok()) {
                return Initiator.notReached(s.instead());
            }
            p.session().sendUlpdu(r.build(p));
            return Terminates.observe(p.session(), ctx.timeout());
        });
    }

}
