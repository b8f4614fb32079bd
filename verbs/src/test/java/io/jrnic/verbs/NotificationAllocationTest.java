package io.jrnic.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Arm, complete, await, poll: the path from a completion to the consumer blocked on its channel allocates nothing
 * per notification (the channel's queue keeps its array; a linked queue allocated a node for each).
 */
class NotificationAllocationTest {
    private static final int ROUNDS = 20_000;

    @Test
    void aNotificationAllocatesNothing() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        try (RdmaDevice dev = Rdma.open("fake")) {
            CompletionChannel ch = dev.createCompletionChannel();
            CompletionQueue cq = dev.createCq(16, ch);
            Completion c = new Completion();
            Completion[] into = Completion.array(4);
            notifyAndTake(ch, cq, c, into); // warm: the JIT, the queue's array
            long tid = Thread.currentThread().getId();
            long before = mx.getThreadAllocatedBytes(tid);
            notifyAndTake(ch, cq, c, into);
            long bytes = mx.getThreadAllocatedBytes(tid) - before;
            assertTrue(bytes < ROUNDS, bytes + " B allocated over " + ROUNDS + " notifications");
        }
    }

    private static void notifyAndTake(CompletionChannel ch, CompletionQueue cq, Completion c, Completion[] into)
            throws InterruptedException {
        for (int i = 0; i < ROUNDS; i++) {
            cq.requestNotify(false);
            assertTrue(cq.push(c));
            assertSame(cq, ch.await(1, TimeUnit.SECONDS));
            assertEquals(1, cq.poll(into));
        }
    }
}
