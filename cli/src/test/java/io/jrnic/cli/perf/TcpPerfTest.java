package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpPerfTest {

    @Test
    void streamToTheServersSinkCountsEveryByte() throws Exception {
        try (PerfServer s = new PerfServer(PerfConfig.defaults(), "soft", new InetSocketAddress("127.0.0.1", 0), 0, null)) {
            BwFigure f = TcpPerf.bandwidth(s.baselineAddress(), 1000, 50, 20_000_000_000L);
            assertEquals(50, f.iterations());
            assertEquals(1000, f.size());
            assertTrue(f.megabytesPerSecond() > 0);
            BwFigure one = TcpPerf.bandwidth(s.baselineAddress(), 1, 3, 20_000_000_000L);
            assertEquals(3, one.iterations());
        }
    }

    @Test
    void pingPongWithTheServersEchoReturnsTheSameBytes() throws Exception {
        try (PerfServer s = new PerfServer(PerfConfig.defaults(), "soft", new InetSocketAddress("127.0.0.1", 0), 0, null)) {
            TcpPerf.Run r = TcpPerf.pingPong(s.baselineAddress(), 300, 20, 20_000_000_000L);
            assertEquals(20, r.iterations());
            assertFalse(r.capped());
            for (int i = 0; i < 20; i++) {
                assertTrue(r.samples()[i] > 0);
            }
        }
    }
}
