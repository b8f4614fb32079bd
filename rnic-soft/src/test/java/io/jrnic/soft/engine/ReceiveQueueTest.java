package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.ddp.UntaggedCompletion;
import io.jrnic.ddp.UntaggedPlacement;
import io.jrnic.rdmap.RdmapControl;
import io.jrnic.rdmap.RdmapOpcode;
import io.jrnic.soft.mem.MemoryTable;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

class ReceiveQueueTest {
    private static final int SEND_LAST = RdmapControl.controlWord(RdmapOpcode.SEND, true);

    private static RqEntry recv(int id, int length) {
        RqEntry e = new RqEntry(id);
        e.sgl.add(MemoryTable.invalidEntry(), 0, length);
        return e;
    }

    @Test
    void messagesConsumeReceivesInPostingOrderAndTheRingHoldsAtMostItsDepth() {
        ReceiveQueue q = new ReceiveQueue(3, null);
        RqEntry[] posted = new RqEntry[5];
        for (int i = 0; i < 5; i++) {
            posted[i] = recv(i, 100);
        }
        for (int i = 0; i < 3; i++) {
            assertTrue(q.offer(posted[i]));
        }
        q.drain();
        assertEquals(3, q.held());
        assertSame(posted[0], q.entryForMsn(1));
        assertSame(posted[2], q.entryForMsn(3));
        assertNull(q.entryForMsn(4), "no receive held for MSN 4");
        UntaggedPlacement p = new UntaggedPlacement();
        UntaggedCompletion c = new UntaggedCompletion();
        assertNull(q.untagged().accept(SEND_LAST, 0, 1, 0, 40, p));
        assertSame(posted[0], q.entry(p.bufferId()));
        assertSame(posted[0], q.pollCompleted(c));
        assertEquals(40, c.messageLength());
        assertNull(q.pollCompleted(c), "MSN 2 has not arrived");
        assertTrue(q.offer(posted[3]));
        assertTrue(q.offer(posted[4]));
        q.drain();
        assertEquals(3, q.held(), "the ring takes one more: its depth is 3");
        assertTrue(q.isOldest(posted[1]));
        assertSame(posted[3], q.entryForMsn(4));
    }

    @Test
    void aFlushRetiresHeldReceivesFirstThenTheOnesNotYetDrainedInPostingOrder() {
        ReceiveQueue q = new ReceiveQueue(2, null);
        RqEntry a = recv(1, 8);
        RqEntry b = recv(2, 8);
        q.offer(a);
        q.drain();
        q.offer(b);
        assertSame(a, q.pollFlushed());
        assertSame(b, q.pollFlushed());
        assertNull(q.pollFlushed());
        q.forgetBuffers(new UntaggedCompletion());
        assertEquals(0, q.held());
    }

    @Test
    void aFailedMessageTakesTheOldestReceiveWithWhatWasPlaced() {
        ReceiveQueue q = new ReceiveQueue(2, null);
        RqEntry a = recv(1, 100);
        q.offer(a);
        q.drain();
        int notLast = RdmapControl.controlWord(RdmapOpcode.SEND, false);
        assertNull(q.untagged().accept(notLast, 0, 1, 0, 30, new UntaggedPlacement()));
        UntaggedCompletion c = new UntaggedCompletion();
        assertSame(a, q.pollFailed(c));
        assertEquals(30, c.messageLength());
        assertEquals(0, q.held());
    }

    @Test
    void anSrqQpTakesAReceiveOnlyWhenTheNextMessageStarts() {
        java.util.Queue<RqEntry> srq = new ConcurrentLinkedQueue<>();
        RqEntry a = recv(1, 8);
        RqEntry b = recv(2, 8);
        srq.add(a);
        srq.add(b);
        ReceiveQueue q = new ReceiveQueue(64, srq);
        q.takeFromSrq(2);
        assertEquals(0, q.held(), "MSN 2 cannot start before MSN 1");
        q.takeFromSrq(1);
        q.takeFromSrq(1);
        assertEquals(1, q.held(), "one receive per message");
        assertSame(a, q.entryForMsn(1));
        q.takeFromSrq(2);
        assertSame(b, q.entryForMsn(2));
        assertFalse(srq.contains(a) || srq.contains(b));
    }

    @Test
    void aNewStreamStartsAtMsnOneWithTheHeldReceives() {
        ReceiveQueue q = new ReceiveQueue(4, null);
        RqEntry a = recv(1, 8);
        q.offer(a);
        q.drain();
        assertNull(q.untagged().accept(SEND_LAST, 0, 1, 0, 8, new UntaggedPlacement()));
        q.pollCompleted(new UntaggedCompletion());
        RqEntry b = recv(2, 8);
        q.offer(b);
        q.drain();
        assertSame(b, q.entryForMsn(2));
        q.rebind();
        assertSame(b, q.entryForMsn(1), "after a rebind the held receive takes MSN 1");
    }
}
