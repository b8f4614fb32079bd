package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The send queue ring: posting order kept across wrap-around, its depth (not the ring's power-of-two size) enforced. */
class SendQueueTest {
    @Test
    void aDepthThatIsNotAPowerOfTwoIsTheLimitAndOrderHoldsAcrossWrapAround() {
        SendQueue q = new SendQueue(3); // a ring of 4
        SqEntry[] e = new SqEntry[40];
        for (int i = 0; i < e.length; i++) {
            e[i] = new SqEntry();
        }
        int added = 0;
        int started = 0;
        for (int round = 0; round < 10; round++) {
            while (q.size() < 3) {
                q.add(e[added++]);
            }
            int over = added;
            assertThrows(IllegalStateException.class, () -> q.add(e[over]), "a fourth WR in a depth of 3");
            while (!q.allStarted()) {
                assertSame(e[started++], q.nextToStart());
                q.started();
            }
            assertNull(q.nextToStart());
            for (int k = 0; k < 2; k++) { // retire two of three: the positions move round the ring unevenly
                assertSame(e[added - q.size()], q.retireOldest());
            }
        }
        assertTrue(added > 4 * 3, "the ring wrapped round");
    }
}
