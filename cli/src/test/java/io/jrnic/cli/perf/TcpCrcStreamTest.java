package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class TcpCrcStreamTest {
    private static final int SIZE = 1000;
    private static final int FRAME = 300; // three whole frames and one of 100 per message

    private static byte[] stream(int messages) {
        ByteBuffer b = new TcpCrcStream.Sender(SIZE, messages, FRAME).frames(messages);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void eachMessageIsFramedWithTheCrc32cOfEachFramesPayload() {
        byte[] s = stream(1);
        assertEquals(SIZE + 4 * 4, s.length);
        assertEquals(TcpCrcStream.wireLength(SIZE, FRAME), s.length);
        CRC32C c = new CRC32C();
        c.update(s, 3 * (FRAME + 4), SIZE - 3 * FRAME);
        assertEquals((int) c.getValue(), ByteBuffer.wrap(s).getInt(s.length - 4));
        for (int k = 0; k < FRAME; k++) {
            assertEquals(Pattern.at(FRAME + k), s[FRAME + 4 + k], "second frame's payload continues the message");
        }
    }

    /** Frame length 0 is the plain baseline: messages back to back, no CRC, every octet counted. */
    @Test
    void withoutFramesTheMessagesGoBackToBackAndEveryOctetCounts() {
        ByteBuffer b = new TcpCrcStream.Sender(SIZE, 3, 0).frames(2);
        assertEquals(2 * SIZE, b.remaining());
        assertEquals(SIZE, TcpCrcStream.wireLength(SIZE, 0));
        assertEquals(Pattern.at(7), b.get(SIZE + 7));
        TcpCrcStream.Checker k = new TcpCrcStream.Checker(SIZE, 0);
        k.feed(b);
        assertFalse(b.hasRemaining());
        assertEquals(2L * SIZE, k.payload());
        assertEquals(0, k.mismatches());
        assertTrue(k.whole());
        assertThrows(IllegalArgumentException.class, () -> new TcpCrcStream.Checker(SIZE, -1));
    }

    /** The receiver's parse does not depend on where reads cut the stream. */
    @Test
    void aStreamCutAnywhereIsCheckedWhole() {
        byte[] s = stream(3);
        for (int cut = 0; cut <= s.length; cut += 7) {
            TcpCrcStream.Checker k = new TcpCrcStream.Checker(SIZE, FRAME);
            k.feed(ByteBuffer.wrap(s, 0, cut));
            k.feed(ByteBuffer.wrap(s, cut, s.length - cut));
            assertEquals(3L * SIZE, k.payload());
            assertEquals(0, k.mismatches());
            assertTrue(k.whole());
        }
        TcpCrcStream.Checker bytewise = new TcpCrcStream.Checker(SIZE, FRAME);
        for (byte x : s) {
            bytewise.feed(ByteBuffer.wrap(new byte[] {x}));
        }
        assertEquals(0, bytewise.mismatches());
        assertTrue(bytewise.whole());
    }

    @Test
    void aChangedPayloadOrCrcOctetIsAMismatchAndACutFrameIsNotWhole() {
        for (int at : new int[] {0, FRAME - 1, FRAME, FRAME + 3, FRAME + 4, TcpCrcStream.wireLength(SIZE, FRAME) - 1}) {
            byte[] s = stream(2);
            s[at] ^= 0x10;
            TcpCrcStream.Checker k = new TcpCrcStream.Checker(SIZE, FRAME);
            k.feed(ByteBuffer.wrap(s));
            assertEquals(1, k.mismatches(), "changed octet " + at);
        }
        TcpCrcStream.Checker k = new TcpCrcStream.Checker(SIZE, FRAME);
        byte[] s = stream(1);
        k.feed(ByteBuffer.wrap(s, 0, s.length - 1));
        assertFalse(k.whole());
    }

    /** The bandwidth baseline's framed stream, end to end through the sink; a sink that finds a bad CRC fails it. */
    @Test
    void theFramedBaselineCountsPayloadAndFailsOnABadCrc() throws Exception {
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread sink = new Thread(() -> {
                try (SocketChannel ch = ss.accept()) {
                    TcpPerf.readFully(ch, ByteBuffer.allocate(1));
                    TcpCrcStream.sink(ch);
                } catch (IOException ignored) {
                    // the client's assertion reports it
                }
            });
            sink.start();
            BwFigure f = TcpPerf.bandwidth((InetSocketAddress) ss.getLocalAddress(), 5000, 100, 10_000_000_000L, 1442);
            sink.join(10_000);
            assertEquals(100, f.iterations());
            Thread liar = new Thread(() -> {
                try (SocketChannel ch = ss.accept()) {
                    ByteBuffer head = ByteBuffer.allocate(9);
                    TcpPerf.readFully(ch, head);
                    ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
                    while (ch.read(buf.clear()) >= 0) {
                        // drains without checking
                    }
                    TcpPerf.writeFully(ch, ByteBuffer.allocate(8).putLong(0, -1));
                } catch (IOException ignored) {
                    // the client's assertion reports it
                }
            });
            liar.start();
            IOException e = assertThrows(IOException.class,
                    () -> TcpPerf.bandwidth((InetSocketAddress) ss.getLocalAddress(), 5000, 10, 10_000_000_000L, 1442));
            assertTrue(e.getMessage().contains("CRC32C mismatch"), e.getMessage());
            liar.join(10_000);
        }
    }
}
