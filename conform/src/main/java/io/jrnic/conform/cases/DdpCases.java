package io.jrnic.conform.cases;

import static io.jrnic.conform.cases.Initiator.afterPing;
import static io.jrnic.conform.cases.Initiator.afterSetup;
import static io.jrnic.conform.cases.Initiator.c;
import static io.jrnic.conform.cases.Initiator.validAfterPing;

import io.jrnic.conform.ConformCase;
import io.jrnic.conform.Expect;
import io.jrnic.conform.Strictness;
import io.jrnic.conform.wire.Ulpdus;
import io.jrnic.ddp.DdpControl;
import io.jrnic.rdmap.RdmapOpcode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * DDP (RFC 5041): the control word, untagged queues and MSNs, message offsets and lengths, tagged
 * STags, bounds and TO wrap. Untagged cases replace the ping's first Send; tagged ones follow a ping.
 */
final class DdpCases {
    private static final String UNTAGGED = "RFC 5041 section 7.2 (untagged buffer errors)";
    private static final String TAGGED = "RFC 5041 section 7.1 (tagged buffer errors)";
    /** An STag no registration of the target should have: ours, with its key byte changed. */
    static final int FOREIGN_STAG = 0x5EED0A00;

    private DdpCases() {
    }

    static List<ConformCase> all() {
        List<ConformCase> l = new ArrayList<>();
        int send = Ulpdus.control(RdmapOpcode.SEND, true);
        for (int dv : new int[] {0, 2, 3}) {
            l.add(c("ddp.version." + dv + ".send", "RFC 5041 section 4.2 (DV)", "a Send with DDP version " + dv
                    + " is terminated with DDP/2/0x06", Strictness.MUST, Expect.terminate(1, 2, 0x06),
                    afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(withDv(send, dv), 0, 0, p.sendMsn, 0,
                            new byte[0], p.sourceDescriptor())))));
        }
        l.add(c("ddp.version.0.write", "RFC 5041 section 4.2 (DV)", "an RDMA Write with DDP version 0 is terminated "
                + "with DDP/1/0x04", Strictness.MUST, Expect.terminate(1, 1, 0x04),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.tagged(withDv(Ulpdus.control(RdmapOpcode.RDMA_WRITE, true), 0),
                        p.targetStag, p.targetTo, new byte[8])))));
        l.add(c("ddp.reserved-bits", "RFC 5041 section 4.2 (Rsvd: not checked on receive)",
                "a Send with the reserved control bits set is taken", Strictness.MUST, Expect.proceeds(),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(send | DdpControl.RESERVED_MASK, 0, 0,
                        p.sendMsn++, 0, new byte[0], p.sourceDescriptor())))));
        for (long qn : new long[] {3, 4, 0xFFFFFFFFL}) {
            // QN 3 exists where RFC 7306 is implemented (Atomic Responses): a Send there is then RDMAP's to refuse
            Expect e = qn == 3 ? Expect.terminate(1, 2, 0x01).orTerminate(0, 2, 0x06) : Expect.terminate(1, 2, 0x01);
            l.add(c("ddp.qn." + Long.toHexString(qn), UNTAGGED, "a Send on queue " + qn + " is terminated with DDP/2/0x01"
                    + (qn == 3 ? " (or RDMAP/2/0x06 by a stack with RFC 7306's queue 3)" : ""),
                    Strictness.MUST, e, afterSetup(p -> p.session().sendUlpdu(
                            Ulpdus.untagged(send, 0, qn, p.sendMsn, 0, new byte[0], p.sourceDescriptor())))));
        }
        for (long msn : new long[] {0, 2, 1000, 0x80000000L, 0xFFFFFFFFL}) {
            // MSN 2 lies one past the one posted buffer but inside rping's receive queue (2 entries): "no buffer"
            // (0x02) and "out of range" (0x03) both describe it; further MSNs are out of any window
            Expect e = msn == 2 ? Expect.terminate(1, 2, 0x03).orTerminate(1, 2, 0x02) : Expect.terminate(1, 2, 0x03);
            l.add(c("ddp.msn." + Long.toHexString(msn), UNTAGGED, "a first Send with MSN 0x" + Long.toHexString(msn)
                    + " (1 is due) is terminated with DDP/2/0x03" + (msn == 2 ? " or 0x02" : ""), Strictness.MUST, e,
                    afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(send, 0, 0, msn, 0, new byte[0],
                            p.sourceDescriptor())))));
        }
        l.add(c("ddp.mo.past-buffer", UNTAGGED, "a last segment at MO 4 that ends past the receive buffer is "
                + "terminated with DDP/2/0x04 or 0x05", Strictness.MUST, Expect.terminate(1, 2, 0x04).orTerminate(1, 2, 0x05),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(send, 0, 0, p.sendMsn, 4, new byte[0],
                        p.sourceDescriptor())))));
        l.add(c("ddp.mo.huge", UNTAGGED, "a segment at MO 0x10000 is terminated with DDP/2/0x04 or 0x05",
                Strictness.MUST, Expect.terminate(1, 2, 0x04).orTerminate(1, 2, 0x05),
                afterSetup(p -> p.session().sendUlpdu(Ulpdus.untagged(send, 0, 0, p.sendMsn, 0x10000, new byte[0],
                        p.sourceDescriptor())))));
        l.add(c("ddp.segments.two", "RFC 5041 section 5.3 (untagged segments, MO)", "a Send in two DDP segments "
                + "(MO 0 without L, MO 8 with L) is reassembled", Strictness.MUST, Expect.proceeds(), afterSetup(p -> {
                    byte[] d = p.sourceDescriptor();
                    long msn = p.sendMsn++;
                    p.session().sendUlpdu(Ulpdus.untagged(DdpControl.withLast(send, false), 0, 0, msn, 0, new byte[0],
                            Arrays.copyOf(d, 8)));
                    p.session().sendUlpdu(Ulpdus.untagged(send, 0, 0, msn, 8, new byte[0], Arrays.copyOfRange(d, 8, 16)));
                })));
        for (int size : new int[] {17, 64, 4096, 65535 - 18}) {
            l.add(c("ddp.too-long." + size, UNTAGGED, "a " + size + "-octet Send into rping's 16-octet receive buffer "
                    + "is terminated with DDP/2/0x05", Strictness.MUST, Expect.terminate(1, 2, 0x05),
                    afterSetup(p -> p.session().sendUlpdu(Ulpdus.send(p.sendMsn, Arrays.copyOf(p.sourceDescriptor(), size))))));
        }
        l.add(c("ddp.tagged.stag.invalid", TAGGED, "an RDMA Write to an STag the target never advertised is "
                + "terminated with DDP/1/0x00", Strictness.MUST, Expect.terminate(1, 1, 0x00),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(foreign(p.targetStag), p.targetTo, new byte[8])))));
        l.add(c("ddp.tagged.stag.other-key", TAGGED, "an RDMA Write to the target's STag with another key byte is "
                + "terminated with DDP/1/0x00", Strictness.MUST, Expect.terminate(1, 1, 0x00),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag ^ 0x5A, p.targetTo, new byte[8])))));
        l.add(c("ddp.tagged.bounds.above", TAGGED, "an RDMA Write 1 MiB past the target's buffer is terminated "
                + "with DDP/1/0x01", Strictness.MUST, Expect.terminate(1, 1, 0x01),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag, p.targetTo + (1 << 20), new byte[8])))));
        l.add(c("ddp.tagged.bounds.straddle", TAGGED, "an RDMA Write that starts inside the buffer and runs "
                + "16 KiB past it is terminated with DDP/1/0x01", Strictness.MUST, Expect.terminate(1, 1, 0x01),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag, p.targetTo, new byte[16384])))));
        l.add(c("ddp.tagged.bounds.below", TAGGED, "an RDMA Write 4 KiB below the buffer's base is terminated "
                + "with DDP/1/0x01", Strictness.MUST, Expect.terminate(1, 1, 0x01).orTerminate(1, 1, 0x03),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag, p.targetTo - 4096, new byte[8])))));
        l.add(c("ddp.tagged.to-wrap", TAGGED, "an RDMA Write whose TO + length wraps 2^64 is terminated with DDP/1/0x03 "
                + "(or 0x01: that TO also lies outside the buffer)", Strictness.MUST,
                Expect.terminate(1, 1, 0x03).orTerminate(1, 1, 0x01),
                afterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag, -16L, new byte[64])))));
        l.add(c("ddp.tagged.write-valid", "RFC 5041 section 5.2 (tagged placement)", "an RDMA Write inside the "
                + "target's advertised buffer is placed silently and the next ping runs", Strictness.MUST, Expect.proceeds(),
                validAfterPing(p -> p.session().sendUlpdu(Ulpdus.write(p.targetStag, p.targetTo, new byte[8])))));
        return l;
    }

    static int foreign(int stag) {
        return stag == FOREIGN_STAG ? FOREIGN_STAG + 0x100 : FOREIGN_STAG;
    }

    static int withDv(int control, int dv) {
        return (control & ~DdpControl.DDP_VERSION_MASK) | ((dv << DdpControl.DDP_VERSION_SHIFT) & DdpControl.DDP_VERSION_MASK);
    }

    static int withRv(int control, int rv) {
        return (control & ~DdpControl.RDMAP_VERSION_MASK) | ((rv << DdpControl.RDMAP_VERSION_SHIFT) & DdpControl.RDMAP_VERSION_MASK);
    }

}
