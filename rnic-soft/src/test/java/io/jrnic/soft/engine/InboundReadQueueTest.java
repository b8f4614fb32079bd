package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InboundReadQueueTest {
    @Test
    void requestsAreAnsweredInArrivalOrderAcrossGrowthAndWrapAround() {
        InboundReadQueue q = new InboundReadQueue();
        long next = 0;
        long expect = 0;
        for (int round = 0; round < 50; round++) {
            int add = 1 + round % 7;
            for (int i = 0; i < add; i++) {
                if (next % 3 == 0) {
                    q.addAtomicResponse((int) next, next * 10);
                } else {
                    q.addRead(null, next, next + 1, (int) next, next * 2);
                }
                next++;
            }
            int take = round % 5 == 4 ? q.size() : Math.max(1, q.size() / 2);
            for (int i = 0; i < take; i++) {
                ReadJob j = q.peek();
                if (expect % 3 == 0) {
                    assertTrue(j.atomic);
                    assertEquals(expect, j.requestId);
                    assertEquals(expect * 10, j.originalValue);
                } else {
                    assertTrue(!j.atomic);
                    assertEquals(expect, j.sourceOffset);
                    assertEquals(expect + 1, j.length);
                    assertEquals(expect * 2, j.sinkTo);
                }
                q.poll();
                expect++;
            }
        }
        assertEquals(next - expect, q.size());
    }

    @Test
    void slotsAreReusedOnceTheRingHasGrownToTheWorkingDepth() {
        InboundReadQueue q = new InboundReadQueue();
        Map<ReadJob, Boolean> seen = new IdentityHashMap<>();
        for (int i = 0; i < 10_000; i++) {
            for (int k = 0; k < 3; k++) {
                seen.put(q.addRead(null, i, 1, 1, 0), Boolean.TRUE);
            }
            q.poll();
            q.poll();
            q.poll();
        }
        assertEquals(4, seen.size(), "a depth of 3 grows the ring to 4 slots and no further");
    }

    @Test
    void answeredAndFlushedSlotsNoLongerHoldTheRegion() {
        InboundReadQueue q = new InboundReadQueue();
        ReadJob a = q.addRead(io.jrnic.soft.mem.MemoryTable.invalidEntry(), 0, 8, 1, 0);
        ReadJob b = q.addRead(io.jrnic.soft.mem.MemoryTable.invalidEntry(), 0, 8, 1, 0);
        q.poll();
        assertNull(a.source);
        assertSame(b, q.peek());
        q.clear();
        assertNull(b.source);
        assertTrue(q.isEmpty());
        assertNull(q.peek());
    }
}
