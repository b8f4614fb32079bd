package io.jrnic.cli.perf;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The TCP side of {@code jrnic perf --qps N}: N streams over loopback, a sender and a receiver thread each, for a
 * fixed time; with a frame length, each stream carries MPA's CRC work ({@link TcpCrcStream}: the sender computes a
 * CRC32C per frame, the receiver checks each), and the figure counts payload octets.
 */
final class TcpStreams {
    private TcpStreams() {
    }

    /** Aggregate MB/s of {@code n} streams of {@code size}-octet messages for {@code nanos}; {@code crcFrame} 0: plain. */
    static MultiQpPerf.Rate run(int n, int size, long nanos, int crcFrame) throws Exception {
        try (ServerSocketChannel ss = ServerSocketChannel.open()) {
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), n);
            List<SocketChannel> out = new ArrayList<>();
            List<SocketChannel> in = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    SocketChannel c = SocketChannel.open(ss.getLocalAddress());
                    c.socket().setTcpNoDelay(true);
                    out.add(c);
                    in.add(ss.accept());
                }
                long[] received = new long[n];
                AtomicLong mismatches = new AtomicLong();
                List<Thread> threads = new ArrayList<>();
                CpuClock.Sample c0 = CpuClock.now();
                long t0 = System.nanoTime();
                long end = t0 + nanos;
                for (int i = 0; i < n; i++) {
                    int k = i;
                    threads.add(new Thread(() -> send(out.get(k), size, end, crcFrame)));
                    threads.add(new Thread(() -> received[k] = drain(in.get(k), size, crcFrame, mismatches)));
                }
                threads.forEach(Thread::start);
                for (Thread t : threads) {
                    t.join(nanos / 1_000_000 + 30_000);
                }
                long t1 = System.nanoTime();
                if (mismatches.get() > 0) {
                    throw new IOException(mismatches.get() + " CRC32C mismatches on the TCP streams");
                }
                return new MultiQpPerf.Rate((double) Arrays.stream(received).sum() * 1e3 / (t1 - t0),
                        CpuClock.between(c0, CpuClock.now()));
            } finally {
                for (SocketChannel c : out) {
                    c.close();
                }
                for (SocketChannel c : in) {
                    c.close();
                }
            }
        }
    }

    private static void send(SocketChannel ch, int size, long end, int crcFrame) {
        int perWrite = Math.max(1, TcpPerf.BATCH_BYTES / size);
        TcpCrcStream.Sender messages = new TcpCrcStream.Sender(size, perWrite, crcFrame);
        try {
            while (System.nanoTime() < end) {
                ByteBuffer b = messages.frames(perWrite);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.shutdownOutput();
        } catch (IOException e) {
            // the receiver's count shows what arrived
        }
    }

    /** Payload octets received (every octet on a plain stream: frame length 0). */
    private static long drain(SocketChannel ch, int size, int crcFrame, AtomicLong mismatches) {
        ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
        TcpCrcStream.Checker checker = new TcpCrcStream.Checker(size, crcFrame);
        try {
            while (ch.read(buf.clear()) >= 0) {
                checker.feed(buf.flip());
            }
        } catch (IOException e) {
            // counted so far
        }
        mismatches.addAndGet(checker.mismatches());
        return checker.payload();
    }
}
