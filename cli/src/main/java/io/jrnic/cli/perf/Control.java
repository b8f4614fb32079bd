package io.jrnic.cli.perf;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The out-of-band control channel between perf client and server (as perftest's TCP side channel):
 * test set-up, SEND credits and verdicts. It shares the baseline port (RDMA port + 1); the first byte
 * of every connection there says what it is ({@link #CONTROL}, {@link TcpPerf#SINK}, {@link TcpCrcStream#SINK}, {@link TcpPerf#ECHO},
 * {@link TcpPerf#BUSY_ECHO}).
 * Every read has a timeout.
 */
final class Control implements AutoCloseable {
    static final byte CONTROL = 'C';
    static final byte BEGIN = 1;
    static final byte READY = 2;
    static final byte CREDIT = 3;
    static final byte END = 4;
    static final byte RESULT = 5;
    static final byte BYE = 6;
    /** The server's answer to a BEGIN while it serves another client: the detail says so; nothing was prepared. */
    static final byte BUSY = 7;

    /** A server's answer: READY (ok, credits, detail), RESULT (ok, detail) or BUSY (detail). */
    record Reply(byte type, boolean ok, long credits, String detail) {
    }

    /** A client's BEGIN. */
    record Begin(PerfCase test, int window, long maxNanos) {
    }

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    /** Keepalive on the control connection: idle seconds before the first probe, seconds between probes, probes. */
    static final int KEEPALIVE_IDLE = 10;
    static final int KEEPALIVE_INTERVAL = 5;
    static final int KEEPALIVE_PROBES = 3;

    Control(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        keepAlive(socket);
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    static Control connect(InetSocketAddress addr, int timeoutMillis) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(addr, timeoutMillis);
            Control c = new Control(s);
            c.out.writeByte(CONTROL);
            c.out.flush();
            return c;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /**
     * TCP keepalive with short probes (where the platform has them), so that a peer whose host or link died without a
     * word ends the session within about 25 s: the server serves one client at a time, and a vanished client must not
     * hold it for the hour a session may wait between tests. A live peer's kernel answers the probes, however long
     * its tests take.
     */
    static void keepAlive(Socket socket) throws IOException {
        socket.setKeepAlive(true);
        try {
            socket.setOption(jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE, KEEPALIVE_IDLE);
            socket.setOption(jdk.net.ExtendedSocketOptions.TCP_KEEPINTERVAL, KEEPALIVE_INTERVAL);
            socket.setOption(jdk.net.ExtendedSocketOptions.TCP_KEEPCOUNT, KEEPALIVE_PROBES);
        } catch (UnsupportedOperationException e) {
            // the system's keepalive timing (hours by default): a vanished peer is noticed late, not never
        }
    }

    // ---- client -> server

    void begin(PerfCase t, int window, long maxNanos) throws IOException {
        out.writeByte(BEGIN);
        out.writeByte(t.op().ordinal());
        out.writeByte(t.kind().ordinal());
        out.writeInt(t.size());
        out.writeLong(t.iterations());
        out.writeInt(window);
        out.writeLong(maxNanos);
        out.flush();
    }

    /** The client finished its loop ({@code done} iterations; {@code ok} false when it failed). */
    void end(long done, boolean ok) throws IOException {
        out.writeByte(END);
        out.writeLong(ok ? done : -1 - done);
        out.flush();
    }

    void bye() throws IOException {
        out.writeByte(BYE);
        out.flush();
    }

    // ---- server -> client

    void ready(boolean ok, long credits, String detail) throws IOException {
        out.writeByte(READY);
        out.writeBoolean(ok);
        out.writeLong(credits);
        out.writeUTF(detail == null ? "" : detail);
        out.flush();
    }

    void busy(String detail) throws IOException {
        out.writeByte(BUSY);
        out.writeUTF(detail);
        out.flush();
    }

    void credit(int n) throws IOException {
        out.writeByte(CREDIT);
        out.writeInt(n);
        out.flush();
    }

    void result(String failure) throws IOException {
        out.writeByte(RESULT);
        out.writeBoolean(failure == null);
        out.writeLong(0);
        out.writeUTF(failure == null ? "" : failure);
        out.flush();
    }

    // ---- reading

    /** Server side: the next BEGIN, or null on BYE / end of stream. */
    Begin readBegin(long timeoutMillis) throws IOException {
        int type = read(timeoutMillis);
        if (type < 0 || type == BYE) {
            return null;
        }
        expect(type, BEGIN);
        Op op = Op.values()[in.readUnsignedByte() % Op.values().length];
        Kind kind = Kind.values()[in.readUnsignedByte() % Kind.values().length];
        int size = in.readInt();
        long iters = in.readLong();
        int window = in.readInt();
        long maxNanos = in.readLong();
        return new Begin(new PerfCase(op, kind, size, iters), window, maxNanos);
    }

    /** Server side: whether the client's END already arrived (never blocks). */
    boolean inputAvailable() throws IOException {
        return in.available() > 0;
    }

    /** Server side: reads END and returns the client's iteration count, negative (-1 - count) if the client failed. */
    long readEnd(long timeoutMillis) throws IOException {
        int type = read(timeoutMillis);
        if (type < 0) {
            throw new EOFException("control channel closed before END");
        }
        expect(type, END);
        return in.readLong();
    }

    /**
     * Client side: the next READY, RESULT or BUSY; CREDITs met on the way are returned as CREDIT replies
     * (credits = n) so the caller can account for them.
     */
    Reply readReply(long timeoutMillis) throws IOException {
        int type = read(timeoutMillis);
        if (type < 0) {
            throw new EOFException("control channel closed by the server");
        }
        if (type == CREDIT) {
            return new Reply(CREDIT, true, in.readInt(), "");
        }
        if (type == BUSY) {
            return new Reply(BUSY, false, 0, in.readUTF());
        }
        if (type != READY && type != RESULT) {
            throw new IOException("unexpected control message " + type);
        }
        boolean ok = in.readBoolean();
        long credits = in.readLong();
        String detail = in.readUTF();
        return new Reply((byte) type, ok, credits, detail.isEmpty() ? null : detail);
    }

    /** Client side: credits granted so far without blocking (reads complete CREDIT messages only). */
    int pollCredits() throws IOException {
        int got = 0;
        while (in.available() >= 5) {
            in.mark(5);
            int type = in.readUnsignedByte();
            if (type != CREDIT) {
                in.reset();
                break;
            }
            got += in.readInt();
        }
        return got;
    }

    private int read(long timeoutMillis) throws IOException {
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis)));
        try {
            return in.read();
        } catch (SocketTimeoutException e) {
            throw new SocketTimeoutException("no control message within " + timeoutMillis + " ms");
        }
    }

    private static void expect(int type, byte want) throws IOException {
        if (type != want) {
            throw new IOException("unexpected control message " + type + " (expected " + want + ")");
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
