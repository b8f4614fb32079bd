package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
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

    @Test
    void busyPingPongWithTheServersBusyEchoGivesASampleForEveryRoundTrip() throws Exception {
        try (PerfServer s = new PerfServer(PerfConfig.defaults(), "soft", new InetSocketAddress("127.0.0.1", 0), 0, null)) {
            for (int size : new int[] {1, 300, 70_000}) {   // 70,000 B: more than one read and write per message
                TcpPerf.Run r = TcpPerf.busyPingPong(s.baselineAddress(), size, 25, 20_000_000_000L);
                assertEquals(25, r.iterations());
                assertFalse(r.capped());
                for (int i = 0; i < 25; i++) {
                    assertTrue(r.samples()[i] > 0);
                }
            }
        }
    }

    @Test
    void busyEchoReturnsEveryByteOfEveryMessage() throws Exception {
        try (PerfServer s = new PerfServer(PerfConfig.defaults(), "soft", new InetSocketAddress("127.0.0.1", 0), 0, null);
             SocketChannel ch = TcpPerf.open(s.baselineAddress(), TcpPerf.BUSY_ECHO)) {
            int size = 5000;
            TcpPerf.writeFully(ch, ByteBuffer.allocate(4).putInt(0, size));
            ch.configureBlocking(false);
            Deadline d = Deadline.in(20_000_000_000L);
            for (int m = 0; m < 3; m++) {
                ByteBuffer out = ByteBuffer.allocateDirect(size);
                for (int k = 0; k < size; k++) {
                    out.put(k, (byte) (k * 31 + m));
                }
                ByteBuffer in = ByteBuffer.allocateDirect(size);
                TcpPerf.spinWrite(ch, out, d);
                TcpPerf.spinRead(ch, in, d);
                assertEquals(out.flip(), in.flip(), "message " + m);
            }
        }
    }
}
