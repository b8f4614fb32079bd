package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.Access;
import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionStatus;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.Memory;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.MrOptions;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.RemoteBuffer;
import io.jrnic.verbs.STag;
import io.jrnic.verbs.SendWr;
import io.jrnic.verbs.TerminateInfo;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every protocol and access violation is answered with the exact Terminate of the reference table
 * (RFC 5040 section 7.2, RFC 5041 section 7.2), both QPs end in ERROR, later work is flushed, and
 * no byte outside the target region changes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TerminateTest {
    static final byte GUARD = 0x5A;

    /** A's WR hits B's memory; the Write retires first (siw-like), the Read behind it is flushed. */
    private static void assertWriteTerminated(SoftPair p, SendWr bad, int layer, int etype, int code) throws Exception {
        byte[] sink = new byte[64];
        MemoryRegion sinkMr = p.a.pd.register(sink, Access.LOCAL_WRITE);
        p.a.qp.postSend(bad, SendWr.rdmaRead().id(2).local(sinkMr.sge(0, 8)).remote(0x1234_5600, 0).signaled());
        Completion w = p.a.awaitOne();
        assertEquals(bad.id(), w.id());
        assertEquals(CompletionStatus.SUCCESS, w.status(), "the Write left before the Terminate came back");
        Completion r = p.a.awaitOne();
        assertEquals(CompletionStatus.WR_FLUSH_ERROR, r.status(), r.toString());
        assertTerminate(p, layer, etype, code);
    }

    /** B sent, A received the Terminate with the triple; both QPs in ERROR. */
    static void assertTerminate(SoftPair p, int layer, int etype, int code) throws Exception {
        AsyncEvent sent = p.b.awaitEvent(AsyncEventType.QP_TERMINATE_SENT);
        AsyncEvent got = p.a.awaitEvent(AsyncEventType.QP_TERMINATE_RECEIVED);
        assertEquals(new TerminateInfo(layer, etype, code, false), sent.terminate());
        assertEquals(new TerminateInfo(layer, etype, code, true), got.terminate());
        SoftPair.eventually(() -> p.a.qp.state() == QpState.ERROR && p.b.qp.state() == QpState.ERROR);
    }

    /** B's target: 256 bytes in the middle of a guarded array (the guards must never change). */
    static final class Target {
        final byte[] array = new byte[1024];
        final MemoryRegion mr;

        Target(ProtectionDomain pd, Access... access) {
            this(pd, false, access);
        }

        Target(ProtectionDomain pd, boolean addressBased, Access... access) {
            Arrays.fill(array, GUARD);
            MrOptions o = MrOptions.of(access);
            mr = pd.register(Memory.of(array, 384, 256), addressBased ? o.addressBased() : o);
        }

        void assertGuardsIntact() {
            for (int i = 0; i < array.length; i++) {
                if (i < 384 || i >= 640) {
                    assertEquals(GUARD, array[i], "byte " + i + " outside the region changed");
                }
            }
        }

        void assertUntouched() {
            for (byte x : array) {
                assertEquals(GUARD, x);
            }
        }
    }

    private static SendWr write(SoftPair p, int length, int stag, long to) {
        byte[] src = new byte[length];
        Arrays.fill(src, (byte) 0x11);
        MemoryRegion mr = p.a.pd.register(src, Access.LOCAL_WRITE);
        return SendWr.rdmaWrite().id(1).local(mr.sge()).remote(stag, to).signaled();
    }

    @Test
    void writeToAnUnknownStagIsDdpInvalidStag() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            assertWriteTerminated(p, write(p, 16, STag.compose(4000, 1), 0), 1, 1, 0x00);
            t.assertUntouched();
        }
    }

    @Test
    void writeWithTheWrongKeyIsDdpInvalidStag() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            assertWriteTerminated(p, write(p, 16, STag.nextKey(rb.stag()), rb.to(0)), 1, 1, 0x00);
            t.assertUntouched();
        }
    }

    @Test
    void writeToAnotherProtectionDomainIsDdpStagNotAssociated() throws Exception {
        try (SoftPair p = new SoftPair()) {
            ProtectionDomain other = p.b.dev.allocatePd();
            Target t = new Target(other, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            assertWriteTerminated(p, write(p, 16, rb.stag(), rb.to(0)), 1, 1, 0x02);
            t.assertUntouched();
        }
    }

    @Test
    void writePastTheEndIsDdpBaseOrBoundsAndTouchesNothing() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            assertWriteTerminated(p, write(p, 16, rb.stag(), rb.to(250)), 1, 1, 0x01);
            t.assertUntouched();
        }
    }

    @Test
    void writeBelowTheBaseIsDdpBaseOrBounds() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, true, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            assertWriteTerminated(p, write(p, 8, rb.stag(), rb.to(0) - 4), 1, 1, 0x01);
            t.assertUntouched();
        }
    }

    @Test
    void writeWithoutRemoteWriteIsRdmapAccessRights() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_READ);
            RemoteBuffer rb = t.mr.advertise();
            assertWriteTerminated(p, write(p, 16, rb.stag(), rb.to(0)), 0, 1, 0x02);
            t.assertUntouched();
        }
    }

    @Test
    void writeToADeregisteredRegionIsDdpInvalidStag() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            t.mr.close();
            assertWriteTerminated(p, write(p, 16, rb.stag(), rb.to(0)), 1, 1, 0x00);
            t.assertUntouched();
        }
    }

    @Test
    void writeToALocallyInvalidatedRegionIsDdpInvalidStag() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            RemoteBuffer rb = t.mr.advertise();
            p.b.qp.postSend(SendWr.localInvalidate(rb.stag()).id(9).signaled());
            Completion inv = p.b.awaitOne();
            assertEquals(CompletionStatus.SUCCESS, inv.status(), inv.toString());
            assertTrue(!t.mr.isValid());
            assertWriteTerminated(p, write(p, 16, rb.stag(), rb.to(0)), 1, 1, 0x00);
            t.assertUntouched();
        }
    }

    @Test
    void readFromAnUnknownStagFailsTheReadWithRdmapInvalidStag() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] sink = new byte[64];
            MemoryRegion mr = p.a.pd.register(sink, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaRead().id(5).local(mr.sge(0, 32)).remote(STag.compose(4000, 0), 0).signaled(),
                    SendWr.send().id(6).local(mr.sge(0, 4)).signaled());
            Completion r = p.a.awaitOne();
            assertEquals(5, r.id());
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, r.status());
            assertEquals(new TerminateInfo(0, 1, 0x00, true), r.terminate());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, p.a.awaitOne().status());
            assertTerminate(p, 0, 1, 0x00);
        }
    }

    @Test
    void readWithoutRemoteReadIsRdmapAccessRights() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            byte[] sink = new byte[64];
            MemoryRegion mr = p.a.pd.register(sink, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaRead().id(5).local(mr.sge(0, 32)).remote(t.mr.advertise(), 0).signaled());
            Completion r = p.a.awaitOne();
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, r.status());
            assertEquals(new TerminateInfo(0, 1, 0x02, true), r.terminate());
            assertTerminate(p, 0, 1, 0x02);
            for (byte x : sink) {
                assertEquals(0, x, "nothing read");
            }
        }
    }

    @Test
    void readPastTheEndIsRdmapBaseOrBounds() throws Exception {
        try (SoftPair p = new SoftPair()) {
            Target t = new Target(p.b.pd, Access.LOCAL_WRITE, Access.REMOTE_READ);
            byte[] sink = new byte[512];
            MemoryRegion mr = p.a.pd.register(sink, Access.LOCAL_WRITE);
            p.a.qp.postSend(SendWr.rdmaRead().id(5).local(mr.sge(0, 257)).remote(t.mr.advertise(), 0).signaled());
            Completion r = p.a.awaitOne();
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, r.status());
            assertEquals(new TerminateInfo(0, 1, 0x01, true), r.terminate());
            assertTerminate(p, 0, 1, 0x01);
        }
    }

    @Test
    void sendWithNoReceivePostedIsDdpNoBuffer() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] src = new byte[32];
            MemoryRegion mr = p.a.pd.register(src, Access.LOCAL_WRITE);
            assertWriteTerminatedBySend(p, SendWr.send().id(1).local(mr.sge(0, 32)).signaled(), mr, 1, 2, 0x02);
        }
    }

    private static void assertWriteTerminatedBySend(SoftPair p, SendWr send, MemoryRegion mr, int layer, int etype,
            int code) throws Exception {
        p.a.qp.postSend(send, SendWr.rdmaRead().id(2).local(mr.sge(0, 8)).remote(0x1234_5600, 0).signaled());
        assertEquals(CompletionStatus.SUCCESS, p.a.awaitOne().status());
        assertEquals(CompletionStatus.WR_FLUSH_ERROR, p.a.awaitOne().status());
        assertTerminate(p, layer, etype, code);
    }

    @Test
    void sendLongerThanTheReceiveIsDdpMessageTooLongAndFailsTheReceive() throws Exception {
        try (SoftPair p = new SoftPair()) {
            byte[] recv = new byte[1024];
            Arrays.fill(recv, GUARD);
            MemoryRegion rmr = p.b.pd.register(recv, Access.LOCAL_WRITE);
            p.b.qp.postRecv(RecvWr.of(77, rmr.sge(0, 8)), RecvWr.of(78, rmr.sge(8, 8)));
            byte[] src = new byte[100];
            MemoryRegion mr = p.a.pd.register(src, Access.LOCAL_WRITE);
            assertWriteTerminatedBySend(p, SendWr.send().id(1).local(mr.sge(0, 100)).signaled(), mr, 1, 2, 0x05);
            Completion r = p.b.awaitOne();
            assertEquals(77, r.id());
            assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, r.status());
            assertEquals(new TerminateInfo(1, 2, 0x05, false), r.terminate());
            Completion flushed = p.b.awaitOne();
            assertEquals(78, flushed.id());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, flushed.status());
            for (byte x : recv) {
                assertEquals(GUARD, x, "no byte of the too-long message placed");
            }
        }
    }

    @Test
    void readRequestsBeyondIrdAreRdmapCatastrophicStream() throws Exception {
        // MPA revision 1 exchanges no IRD/ORD, so the initiator's ORD (4) can exceed the responder's IRD (1)
        ConnectOptions co = ConnectOptions.defaults().mpaRevision(1).ord(4);
        try (SoftPair p = new SoftPair(co, ConnectOptions.defaults().mpaRevision(1),
                AcceptOptions.defaults().ird(1), null)) {
            int size = 8 << 20;
            byte[] src = new byte[size];
            MemoryRegion smr = p.b.pd.register(src, Access.LOCAL_WRITE, Access.REMOTE_READ);
            byte[] sink = new byte[size];
            MemoryRegion mr = p.a.pd.register(sink, Access.LOCAL_WRITE);
            RemoteBuffer rb = smr.advertise();
            p.a.qp.postSend(SendWr.rdmaRead().id(1).local(mr.sge()).remote(rb, 0).signaled(),
                    SendWr.rdmaRead().id(2).local(mr.sge()).remote(rb, 0).signaled(),
                    SendWr.rdmaRead().id(3).local(mr.sge()).remote(rb, 0).signaled());
            var cs = p.a.await(3);
            assertNotNull(cs);
            assertTerminate(p, 0, 2, 0x07);
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, cs.get(0).status(), cs.toString());
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, cs.get(1).status(), cs.toString());
            assertEquals(new TerminateInfo(0, 2, 0x07, true), cs.get(1).terminate());
            assertEquals(CompletionStatus.WR_FLUSH_ERROR, cs.get(2).status(), cs.toString());
        }
    }
}
