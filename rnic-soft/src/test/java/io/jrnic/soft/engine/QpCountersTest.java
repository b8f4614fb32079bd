package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QpCountersTest {

    @Test
    void sumsCountersAndTakesTheMaximumOfHighWaterMarks() {
        QpCounters a = new QpCounters();
        QpCounters b = new QpCounters();
        a.add(Counter.TX_BYTES, 100);
        a.inc(Counter.TX_FPDUS);
        b.add(Counter.TX_BYTES, 23);
        a.max(Counter.IRD_HIGH_WATER, 3);
        a.max(Counter.IRD_HIGH_WATER, 2);
        b.max(Counter.IRD_HIGH_WATER, 5);
        long[] sum = new long[QpCounters.size()];
        a.addTo(sum);
        b.addTo(sum);
        Map<String, Long> named = QpCounters.named(sum);
        assertEquals(123L, named.get("txBytes"));
        assertEquals(1L, named.get("txFpdus"));
        assertEquals(5L, named.get("inboundReadQueueHighWater"));
        assertEquals(3L, a.get(Counter.IRD_HIGH_WATER));
    }

    @Test
    void terminatesAreKeyedByTripleAndNoBufferIsAReceiveQueueEmptyEvent() {
        QpCounters c = new QpCounters();
        c.terminate(1, 2, 0x02, false); // DDP untagged, no buffer available (RFC 5041 section 7.2)
        c.terminate(1, 2, 0x02, false);
        c.terminate(2, 0, 0x02, true);  // LLP CRC error received
        Map<String, Long> sent = new LinkedHashMap<>();
        Map<String, Long> received = new LinkedHashMap<>();
        c.terminatesTo(sent, received);
        assertEquals(Map.of("DDP/0x2/0x2", 2L), sent);
        assertEquals(Map.of("LLP/0x0/0x2", 1L), received);
        assertEquals(2, c.get(Counter.RQ_EMPTY));
        assertEquals(2, c.get(Counter.TERMINATES_SENT));
        assertEquals(1, c.get(Counter.TERMINATES_RECEIVED));
    }

    @Test
    void receivedMessagesAreCountedOnTheirLastSegment() {
        QpCounters c = new QpCounters();
        c.received(io.jrnic.rdmap.RdmapOpcode.RDMA_WRITE, (byte) 0x80);        // T, not L
        c.received(io.jrnic.rdmap.RdmapOpcode.RDMA_WRITE, (byte) 0xC0);        // T and L
        c.received(io.jrnic.rdmap.RdmapOpcode.SEND_WITH_INVALIDATE, (byte) 0x41);
        assertEquals(3, c.get(Counter.RX_FPDUS));
        assertEquals(1, c.get(Counter.RX_WRITE));
        assertEquals(1, c.get(Counter.RX_SEND));
    }
}
