package io.jrnic.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.jrnic.ddp.DdpControl;
import io.jrnic.ddp.DdpError;
import io.jrnic.ddp.UntaggedCompletion;
import io.jrnic.ddp.UntaggedPlacement;
import io.jrnic.ddp.UntaggedReceiver;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * UntaggedReceiver (RFC 5041 sections 5.3 and 7.2) driven by a fuzzer-chosen sequence of
 * postBuffer, accept, pollCompletion and pollFlush, checked step by step against a model written
 * from the class javadoc's ordered rules. Input: queue count (u8 % 4 + 1), ring size (u8 % 8 + 1),
 * then operations (see {@link #sequence}).
 */
class UntaggedReceiverFuzzTest {
    private static final long U32 = 0xFFFF_FFFFL;

    /** A posted buffer in the model. */
    static final class Buf {
        final long id;
        final long length;
        long received;
        boolean complete;

        Buf(long id, long length) {
            this.id = id;
            this.length = length;
        }
    }

    /**
     * Properties: accept never throws for any header values (T clear: tagged segments are
     * documented to be refused by IllegalArgumentException); its error is the model's; an accepted
     * segment is placed in the buffer the MSN names, at exactly the bytes received so far, and
     * ends within the buffer's length; a rejected one changes nothing; completions come out in MSN
     * order with the message length placed; postBuffer refuses only when the ring is full.
     */
    @FuzzTest(maxDuration = "60s")
    void sequence(byte[] data) {
        FuzzInput in = new FuzzInput(data);
        int queues = in.u8() % 4 + 1;
        int ring = in.u8() % 8 + 1;
        UntaggedReceiver r = new UntaggedReceiver(queues, ring);
        List<ArrayDeque<Buf>> model = new ArrayList<>();
        long[] expectedMsn = new long[queues];
        for (int q = 0; q < queues; q++) {
            model.add(new ArrayDeque<>());
            expectedMsn[q] = 1;
        }
        UntaggedPlacement p = new UntaggedPlacement();
        UntaggedCompletion c = new UntaggedCompletion();
        long nextId = 100;
        for (int step = 0; step < 512 && in.remaining() > 0; step++) {
            int op = in.u8();
            int q = (op >>> 3) % queues;
            switch (op & 7) {
                case 0, 1 -> { // postBuffer: length u16, or u32, or 2^32 (the largest allowed)
                    long length = (op & 1) == 0 ? in.u16() : ((op & 0x80) != 0 ? U32 + 1 : in.u32());
                    long id = nextId++;
                    boolean posted = r.postBuffer(q, id, length);
                    assertEquals(model.get(q).size() < ring, posted, "postBuffer refused only when full");
                    if (posted) {
                        model.get(q).addLast(new Buf(id, length));
                    }
                }
                case 2, 3, 4 -> { // accept
                    int control = in.u16() & ~DdpControl.TAGGED_FLAG;
                    if ((op & 0x40) != 0) { // a well-formed control word often enough
                        control = (control & ~DdpControl.DDP_VERSION_MASK) | (1 << DdpControl.DDP_VERSION_SHIFT);
                    }
                    long qn = (op & 0x80) != 0 ? in.u32() : q;
                    long msn = (op & 1) != 0 ? in.u32() : (expectedMsn[q] + in.u8() % 4) & U32;
                    int near = in.u8();
                    long mo = (near & 1) != 0 ? in.u32() : receivedOf(model.get(q), expectedMsn[q], msn);
                    int length = (near & 2) != 0 ? in.u16() : (int) (in.u32() & 0x7FFF_FFFF);
                    DdpError expected = rule(model, ring, expectedMsn, control, qn, msn, mo, length);
                    DdpError got = r.accept(control, qn, msn, mo, length, p);
                    assertEquals(expected, got, "accept error");
                    if (got == null) {
                        int qi = (int) qn;
                        Buf b = bufferOf(model.get(qi), expectedMsn[qi], msn);
                        assertEquals(qi, p.queueNumber());
                        assertEquals(msn, p.msn());
                        assertEquals(b.id, p.bufferId(), "the buffer the MSN names");
                        assertEquals(b.received, p.bufferOffset(), "placed at the bytes received so far");
                        assertEquals(length, p.length());
                        assertTrue(p.bufferOffset() + p.length() <= b.length, "placement within the buffer");
                        b.received += length;
                        b.complete = DdpControl.isLast(control);
                        assertEquals(b.complete, p.messageComplete());
                    }
                }
                case 5, 6 -> { // pollCompletion
                    ArrayDeque<Buf> queue = model.get(q);
                    boolean ready = !queue.isEmpty() && queue.peekFirst().complete;
                    assertEquals(ready, r.pollCompletion(q, c));
                    if (ready) {
                        check(c, queue.pollFirst(), q, expectedMsn[q]);
                        expectedMsn[q] = (expectedMsn[q] + 1) & U32;
                    }
                }
                default -> { // pollFlush
                    ArrayDeque<Buf> queue = model.get(q);
                    assertEquals(!queue.isEmpty(), r.pollFlush(q, c));
                    if (!queue.isEmpty()) {
                        check(c, queue.pollFirst(), q, expectedMsn[q]);
                        expectedMsn[q] = (expectedMsn[q] + 1) & U32;
                    }
                }
            }
            assertEquals(expectedMsn[q], r.expectedMsn(q));
            assertEquals(model.get(q).size(), r.postedBuffers(q));
        }
    }

    private static void check(UntaggedCompletion c, Buf b, int q, long msn) {
        assertEquals(q, c.queueNumber());
        assertEquals(msn, c.msn(), "completions in MSN order");
        assertEquals(b.id, c.bufferId());
        assertEquals(b.received, c.messageLength());
        assertEquals(b.complete, c.complete());
        assertTrue(c.messageLength() <= b.length);
    }

    /** The javadoc's checks, in order. */
    private static DdpError rule(List<ArrayDeque<Buf>> model, int ring, long[] expectedMsn, int control, long qn,
            long msn, long mo, int length) {
        if (DdpControl.ddpVersion(control) != 1) {
            return DdpError.UNTAGGED_INVALID_VERSION;
        }
        if (qn < 0 || qn >= model.size()) {
            return DdpError.INVALID_QN;
        }
        int q = (int) qn;
        long d = (msn - expectedMsn[q]) & U32;
        if (d >= ring) {
            // the range first (behind the expected MSN, or beyond what the ring could ever hold posted)
            return DdpError.MSN_OUT_OF_RANGE;
        }
        if (d >= model.get(q).size()) {
            return DdpError.NO_BUFFER;
        }
        Buf b = bufferOf(model.get(q), expectedMsn[q], msn);
        if (b.complete) {
            return DdpError.MSN_OUT_OF_RANGE;
        }
        if (mo != b.received) {
            return DdpError.INVALID_MO;
        }
        if (mo + length > b.length) {
            return DdpError.MESSAGE_TOO_LONG;
        }
        return null;
    }

    private static Buf bufferOf(ArrayDeque<Buf> queue, long expected, long msn) {
        long d = (msn - expected) & U32;
        if (d >= queue.size()) {
            return null;
        }
        return new ArrayList<>(queue).get((int) d);
    }

    private static long receivedOf(ArrayDeque<Buf> queue, long expected, long msn) {
        Buf b = bufferOf(queue, expected, msn);
        return b == null ? 0 : b.received;
    }
}
