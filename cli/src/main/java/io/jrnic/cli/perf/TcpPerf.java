package io.jrnic.cli.perf;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The raw-TCP baseline: java.nio SocketChannels, TCP_NODELAY, one reused direct buffer per side, over the
 * same loopback in the same JVM as the RDMA run. Bandwidth (blocking channels): the client writes
 * {@code iterations} messages of {@code size} bytes as a batching TCP sender would: each write call carries
 * as many whole messages as fit in {@link #BATCH_BYTES} (one message per write from that size up), shuts its
 * output, and the sink answers with the byte count it received; the time runs from the first write to that
 * answer. Latency: a ping-pong of {@code size}-byte messages, either blocking on both sides ({@link #pingPong}
 * with {@link #echo}) or busy-polling on both sides ({@link #busyPingPong} with {@link #busyEcho}: non-blocking
 * channels whose reads and writes spin and park as {@link Deadline#idlePolling}). A watchdog closes the
 * channel at the deadline so no read can hang.
 */
public final class TcpPerf {
    static final byte SINK = 'S';
    static final byte ECHO = 'E';
    /** The blocking echo on a virtual thread (the server runs {@link #echo} on one). */
    static final byte VIRTUAL_ECHO = 'V';
    /** The busy-polling echo. */
    static final byte BUSY_ECHO = 'P';
    /** A bandwidth write carries whole messages up to this many bytes. */
    static final int BATCH_BYTES = 64 * 1024;
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jrnic-perf-watchdog");
        t.setDaemon(true);
        return t;
    });

    private TcpPerf() {
    }

    /** Outcome of a baseline loop: iterations done, elapsed time or samples, and whether the cap hit. */
    public record Run(long iterations, long nanos, long[] samples, boolean capped) {
    }

    /** Streams messages to the sink at {@code addr}; the figure counts only bytes the sink confirmed. */
    public static BwFigure bandwidth(InetSocketAddress addr, int size, long iterations, long maxNanos) throws IOException {
        return bandwidth(addr, size, iterations, maxNanos, 0);
    }

    /**
     * {@link #bandwidth(InetSocketAddress, int, long, long)}, and with {@code crcFrame > 0} each message goes as frames
     * of that many payload octets with the CRC32C of each, computed by this side and checked by the sink
     * ({@link TcpCrcStream}); the figure counts payload octets.
     */
    public static BwFigure bandwidth(InetSocketAddress addr, int size, long iterations, long maxNanos, int crcFrame)
            throws IOException {
        try (SocketChannel ch = crcFrame > 0 ? TcpCrcStream.open(addr, size, crcFrame) : open(addr, SINK)) {
            ScheduledFuture<?> dog = watchdog(ch, maxNanos + 10_000_000_000L);
            try {
                int perWrite = Math.max(1, BATCH_BYTES / size);
                TcpCrcStream.Sender messages = new TcpCrcStream.Sender(size, perWrite, crcFrame);
                Deadline d = Deadline.in(maxNanos);
                long sent = 0;
                CpuClock.Sample c0 = CpuClock.now();
                long t0 = System.nanoTime(); // after the sample, whose /proc/stat read is not the run's time
                while (sent < iterations && ((sent & 63) != 0 || perWrite > 1 || !d.expired())) {
                    int k = (int) Math.min(perWrite, iterations - sent);
                    ByteBuffer b = messages.frames(k);
                    while (b.hasRemaining()) {
                        ch.write(b);
                    }
                    sent += k;
                    if (perWrite > 1 && d.expired()) {
                        break;
                    }
                }
                ch.shutdownOutput();
                ByteBuffer ack = ByteBuffer.allocate(8);
                readFully(ch, ack);
                long t1 = System.nanoTime();
                CpuClock.Sample c1 = CpuClock.now();
                long received = ack.getLong(0);
                if (received < 0 && crcFrame > 0) {
                    throw new IOException("TCP sink found a CRC32C mismatch or a cut frame");
                }
                if (received != sent * size) {
                    throw new IOException("TCP sink received " + received + " bytes, sent " + sent * size);
                }
                return new BwFigure(sent, size, Math.max(1, t1 - t0), CpuClock.between(c0, c1));
            } finally {
                dog.cancel(false);
            }
        }
    }

    /** Ping-pongs {@code size}-byte messages with the echo at {@code addr}; samples are whole round trips in ns. */
    public static Run pingPong(InetSocketAddress addr, int size, long iterations, long maxNanos) throws IOException {
        return pingPong(addr, size, iterations, maxNanos, ECHO);
    }

    /**
     * As {@link #pingPong(InetSocketAddress, int, long, long)} against the echo {@code kind} names ({@link #ECHO}, or
     * {@link #VIRTUAL_ECHO}: the caller is a virtual thread too, like for like).
     */
    static Run pingPong(InetSocketAddress addr, int size, long iterations, long maxNanos, byte kind) throws IOException {
        try (SocketChannel ch = open(addr, kind)) {
            ScheduledFuture<?> dog = watchdog(ch, maxNanos + 10_000_000_000L);
            try {
                ByteBuffer hdr = ByteBuffer.allocate(4).putInt(0, size);
                writeFully(ch, hdr);
                ByteBuffer out = patterned(size);
                ByteBuffer in = ByteBuffer.allocateDirect(size);
                long[] samples = new long[(int) Math.min(iterations, Integer.MAX_VALUE - 8)];
                Deadline d = Deadline.in(maxNanos);
                int n = 0;
                while (n < samples.length && !d.expired()) {
                    long t0 = System.nanoTime();
                    out.clear();
                    writeFully(ch, out);
                    in.clear();
                    readFully(ch, in);
                    samples[n++] = System.nanoTime() - t0;
                }
                checkEcho(in, size);
                return new Run(n, 0, samples, n < samples.length);
            } finally {
                dog.cancel(false);
            }
        }
    }

    /**
     * As {@link #pingPong}, but busy-polling on both sides: this side's channel is non-blocking and its reads and
     * writes spin as {@link Deadline#idlePolling}, against the server's {@link #busyEcho}.
     */
    public static Run busyPingPong(InetSocketAddress addr, int size, long iterations, long maxNanos) throws IOException {
        try (SocketChannel ch = open(addr, BUSY_ECHO)) {
            ScheduledFuture<?> dog = watchdog(ch, maxNanos + 10_000_000_000L);
            try {
                writeFully(ch, ByteBuffer.allocate(4).putInt(0, size));
                ch.configureBlocking(false);
                ByteBuffer out = patterned(size);
                ByteBuffer in = ByteBuffer.allocateDirect(size);
                long[] samples = new long[(int) Math.min(iterations, Integer.MAX_VALUE - 8)];
                Deadline cap = Deadline.in(maxNanos);
                Deadline hang = Deadline.in(maxNanos + 10_000_000_000L).stall(RdmaPerf.STALL_NANOS);
                int n = 0;
                while (n < samples.length && !cap.expired()) {
                    long t0 = System.nanoTime();
                    spinWrite(ch, out.clear(), hang);
                    spinRead(ch, in.clear(), hang);
                    samples[n++] = System.nanoTime() - t0;
                }
                checkEcho(in, size);
                return new Run(n, 0, samples, n < samples.length);
            } catch (TimeoutException e) {
                throw new IOException("busy TCP ping-pong: " + e.getMessage(), e);
            } finally {
                dog.cancel(false);
            }
        }
    }

    private static void checkEcho(ByteBuffer in, int size) throws IOException {
        for (int k = 0; k < size; k++) {
            if (in.get(k) != Pattern.at(k)) {
                throw new IOException("TCP echo returned a wrong byte at " + k);
            }
        }
    }

    /** Writes all of {@code b} on a non-blocking channel, idling as {@link Deadline#idlePolling} while it cannot. */
    static void spinWrite(SocketChannel ch, ByteBuffer b, Deadline d) throws IOException, TimeoutException {
        while (b.hasRemaining()) {
            if (ch.write(b) > 0) {
                d.progress();
            } else {
                d.idlePolling("TCP send buffer space");
            }
        }
    }

    /** Fills {@code b} from a non-blocking channel, idling as {@link Deadline#idlePolling} while nothing arrives. */
    static void spinRead(SocketChannel ch, ByteBuffer b, Deadline d) throws IOException, TimeoutException {
        while (b.hasRemaining()) {
            int r = ch.read(b);
            if (r < 0) {
                throw new EOFException("end of stream after " + b.position() + " of " + b.limit() + " bytes");
            }
            if (r > 0) {
                d.progress();
            } else {
                d.idlePolling("TCP bytes to read");
            }
        }
    }

    // ---- server side (called by PerfServer for connections whose first byte is SINK, ECHO, VIRTUAL_ECHO or BUSY_ECHO)

    /** Counts bytes until end of stream, then answers with the count. */
    static void sink(SocketChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
        long total = 0;
        while (true) {
            buf.clear();
            int r = ch.read(buf);
            if (r < 0) {
                break;
            }
            total += r;
        }
        writeFully(ch, ByteBuffer.allocate(8).putLong(0, total));
    }

    /** Echoes messages of the announced size until end of stream. */
    static void echo(SocketChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(echoSize(ch));
        while (true) {
            buf.clear();
            try {
                readFully(ch, buf);
            } catch (EOFException e) {
                return;
            }
            buf.flip();
            writeFully(ch, buf);
        }
    }

    /**
     * As {@link #echo}, busy-polling: the channel turns non-blocking after the size header and every read and write
     * spins as {@link Deadline#idlePolling}; gives up at {@code maxNanos} (the watchdog closes the channel too).
     */
    static void busyEcho(SocketChannel ch, long maxNanos) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(echoSize(ch));
        ch.configureBlocking(false);
        Deadline d = Deadline.in(maxNanos);
        try {
            while (true) {
                buf.clear();
                int r;
                while ((r = ch.read(buf)) == 0 && buf.position() == 0) {
                    d.idlePolling("the next TCP ping");
                }
                if (r < 0 && buf.position() == 0) {
                    return; // the client is done
                }
                d.progress();
                spinRead(ch, buf, d);
                spinWrite(ch, buf.flip(), d);
            }
        } catch (TimeoutException e) {
            throw new IOException("busy TCP echo: " + e.getMessage(), e);
        }
    }

    private static int echoSize(SocketChannel ch) throws IOException {
        ByteBuffer hdr = ByteBuffer.allocate(4);
        readFully(ch, hdr);
        int size = hdr.getInt(0);
        if (size < 1 || size > PerfConfig.MAX_SIZE) {
            throw new IOException("bad echo size " + size);
        }
        return size;
    }

    static SocketChannel open(InetSocketAddress addr, byte kind) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().connect(addr, 10_000);
            writeFully(ch, ByteBuffer.wrap(new byte[] {kind}));
            return ch;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    static ScheduledFuture<?> watchdog(SocketChannel ch, long nanos) {
        return WATCHDOG.schedule(() -> {
            try {
                ch.close();
            } catch (IOException ignored) {
                // the blocked call fails with AsynchronousCloseException
            }
        }, nanos, TimeUnit.NANOSECONDS);
    }

    static ByteBuffer patterned(int size) {
        ByteBuffer b = ByteBuffer.allocateDirect(size);
        for (int k = 0; k < size; k++) {
            b.put(k, Pattern.at(k));
        }
        return b;
    }

    static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("end of stream after " + b.position() + " of " + b.limit() + " bytes");
            }
        }
    }

    static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
