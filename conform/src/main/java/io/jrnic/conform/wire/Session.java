package io.jrnic.conform.wire;

import io.jrnic.mpa.CrcCheck;
import io.jrnic.mpa.FpduDecoder;
import io.jrnic.mpa.FpduEncoder;
import io.jrnic.mpa.FpduListener;
import io.jrnic.mpa.LlpError;
import io.jrnic.mpa.MpaSetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One raw connection to the target on a blocking socket: bytes out exactly as a case builds them
 * (one {@code write} per call, TCP_NODELAY, so that each call is one TCP segment on loopback), MPA
 * set-up frames and FPDUs in, decoded with the framing the case negotiated. Every byte, FIN and RST
 * both ways goes to the case's {@link Recording}. Not thread safe.
 */
public final class Session implements AutoCloseable {
    /** What {@link #next} found. */
    public enum EventKind { MESSAGE, CLOSED, RESET, TIMEOUT }

    /** A ULPDU from the target (markers removed), or how the stream ended. */
    public record Event(EventKind kind, byte[] ulpdu, boolean crcBad) {
        public ByteBuf buf() {
            return Unpooled.wrappedBuffer(ulpdu);
        }
    }

    private static final int READ_CHUNK = 64 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Recording recording;
    private final boolean tcpClient;
    private final byte[] readBuf = new byte[READ_CHUNK];
    private final ArrayDeque<Event> events = new ArrayDeque<>();
    private ByteBuf pending = Unpooled.buffer(256);
    private Framing framing;
    private FpduDecoder decoder;
    private boolean ended;
    private int markerErrors;
    private int splitSize;

    private Session(Socket socket, Recording recording, boolean tcpClient) throws IOException {
        this.socket = socket;
        this.recording = recording;
        this.tcpClient = tcpClient;
        socket.setTcpNoDelay(true);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        InetSocketAddress local = (InetSocketAddress) socket.getLocalSocketAddress();
        InetSocketAddress remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        recording.endpoints(tcpClient ? local : remote, tcpClient ? remote : local);
    }

    /** Connects to the target (the initiator role). */
    public static Session connect(InetSocketAddress target, Duration timeout, Recording recording) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(target, (int) timeout.toMillis());
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return new Session(s, recording, true);
    }

    /** Accepts the target's connection (the responder role). */
    public static Session accept(ServerSocket listener, Duration timeout, Recording recording) throws IOException {
        listener.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        return new Session(listener.accept(), recording, false);
    }

    public Socket socket() {
        return socket;
    }

    /** Sends the bytes in one write. */
    public void send(byte[] bytes) throws IOException {
        recording.add(tcpClient, bytes.clone(), false, false);
        out.write(bytes);
        out.flush();
    }

    /** Sends the readable bytes of {@code b} in one write and releases it. */
    public void send(ByteBuf b) throws IOException {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        b.release();
        send(a);
    }

    /**
     * Sends the bytes as separate TCP segments of {@code chunk} bytes (TCP_NODELAY, with a pause between
     * writes so that the kernel does not coalesce them).
     */
    public void sendSplit(byte[] bytes, int chunk) throws IOException {
        for (int i = 0; i < bytes.length; i += chunk) {
            send(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + chunk)));
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
    }

    /** Half-closes: sends a FIN. */
    public void fin() throws IOException {
        recording.add(tcpClient, new byte[0], true, false);
        socket.shutdownOutput();
    }

    /** Aborts the connection with a RST. */
    public void reset() throws IOException {
        recording.add(tcpClient, new byte[0], false, true);
        socket.setSoLinger(true, 0);
        socket.close();
        ended = true;
    }

    /**
     * Reads one set-up frame (RFC 5044 section 7.1): 20 header octets, then PD_Length octets.
     * Returns the frame's raw bytes, or null when the stream ended or {@code timeout} passed first
     * ({@link #lastEnd()} tells which). Bytes after the frame stay for the FPDU decoder.
     */
    public byte[] readSetupFrame(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (pending.readableBytes() >= MpaSetupFrame.HEADER_LENGTH) {
                int pdLength = pending.getUnsignedShort(pending.readerIndex() + MpaSetupFrame.PD_LENGTH_OFFSET);
                int total = MpaSetupFrame.HEADER_LENGTH + pdLength;
                if (pending.readableBytes() >= total) {
                    byte[] frame = new byte[total];
                    pending.readBytes(frame);
                    return frame;
                }
            }
            EventKind k = fill(deadline);
            if (k != null) {
                lastEnd = k;
                return null;
            }
        }
    }

    private EventKind lastEnd = EventKind.TIMEOUT;

    /** How the last {@link #readSetupFrame} that returned null ended. */
    public EventKind lastEnd() {
        return lastEnd;
    }

    /** Bytes received and not yet framed (after a set-up frame: what the target pipelined behind it). */
    public int pendingBytes() {
        return pending.readableBytes();
    }

    /** Starts FPDU framing in both directions with the negotiated CRC and markers (RFC 5044 section 7.1.2). */
    public void startFraming(boolean crc, boolean markersTx, boolean markersRx) {
        framing = new Framing(crc, markersTx);
        decoder = new FpduDecoder(crc, markersRx, true, 0, new FpduListener() {
            @Override
            public void onFpdu(ByteBuf ulpdu, long fpduStreamOffset, CrcCheck check) {
                byte[] a = new byte[ulpdu.readableBytes()];
                ulpdu.getBytes(ulpdu.readerIndex(), a);
                events.add(new Event(EventKind.MESSAGE, a, check == CrcCheck.BAD));
            }

            @Override
            public void onError(LlpError error, long streamOffset, String detail) {
                if (error == LlpError.MARKER_MISMATCH) {
                    markerErrors++;
                }   // CRC errors arrive as a BAD FPDU (continueAfterError)
            }
        });
        if (pending.isReadable()) {
            decoder.feed(pending);
        }
    }

    /** Markers from the target whose FPDUPTR did not point at an FPDU start. */
    public int markerErrors() {
        return markerErrors;
    }

    /** From now on {@link #sendUlpdu} sends each FPDU as TCP segments of {@code size} octets (0: whole). */
    public void splitFpdus(int size) {
        splitSize = size;
    }

    public Framing framing() {
        return framing;
    }

    /** Frames the ULPDU as one FPDU and sends it in one write. */
    public void sendUlpdu(ByteBuf ulpdu) throws IOException {
        byte[] f = framing.fpdu(ulpdu);
        if (splitSize > 0) {
            sendSplit(f, splitSize);
        } else {
            send(f);
        }
    }

    /** The next ULPDU from the target, or how the stream ended, within {@code timeout}. */
    public Event next(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (events.isEmpty()) {
            EventKind k = fill(deadline);
            if (k != null) {
                return new Event(k, null, false);
            }
        }
        return events.poll();
    }

    /** Reads once; returns null on data, else CLOSED, RESET or TIMEOUT. */
    private EventKind fill(long deadline) throws IOException {
        if (ended) {
            return lastEnd == EventKind.RESET ? EventKind.RESET : EventKind.CLOSED;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            return EventKind.TIMEOUT;
        }
        socket.setSoTimeout((int) Math.max(1, left / 1_000_000L));
        int n;
        try {
            n = in.read(readBuf);
        } catch (SocketTimeoutException e) {
            return EventKind.TIMEOUT;
        } catch (SocketException e) {
            ended = true;
            lastEnd = EventKind.RESET;
            recording.add(!tcpClient, new byte[0], false, true);
            return EventKind.RESET;
        }
        if (n < 0) {
            ended = true;
            lastEnd = EventKind.CLOSED;
            recording.add(!tcpClient, new byte[0], true, false);
            return EventKind.CLOSED;
        }
        recording.add(!tcpClient, Arrays.copyOf(readBuf, n), false, false);
        if (decoder != null) {
            ByteBuf b = Unpooled.wrappedBuffer(readBuf, 0, n);
            decoder.feed(b);
        } else {
            pending.writeBytes(readBuf, 0, n);
        }
        return null;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
        pending.release();
        pending = Unpooled.EMPTY_BUFFER;
    }

    /** Builds FPDUs (RFC 5044 section 4): with markers through jrnic's encoder, without them by hand so
     *  that cases can set the pad octets and the CRC field. */
    public static final class Framing {
        private final boolean crc;
        private final FpduEncoder markerEncoder;

        Framing(boolean crc, boolean markersTx) {
            this.crc = crc;
            this.markerEncoder = markersTx ? new FpduEncoder(crc, true) : null;
        }

        public boolean crc() {
            return crc;
        }

        public boolean markers() {
            return markerEncoder != null;
        }

        /** A well-formed FPDU (releases {@code ulpdu}). */
        public byte[] fpdu(ByteBuf ulpdu) {
            if (markerEncoder != null) {
                ByteBuf out = Unpooled.buffer();
                markerEncoder.encode(ulpdu, out);
                ulpdu.release();
                byte[] a = new byte[out.readableBytes()];
                out.readBytes(a);
                out.release();
                return a;
            }
            return fpdu(ulpdu, ulpdu.readableBytes(), (byte) 0, true);
        }

        /**
         * An FPDU with an explicit ULPDU_Length field, pad octet value and CRC choice (markers off);
         * {@code ulpduLength} may disagree with the bytes (the frame then carries the real bytes). The CRC
         * field always holds CRC32C over the frame (harmless when CRC is off), off by one bit when
         * {@code validCrc} is false.
         */
        public static byte[] fpdu(ByteBuf ulpdu, int ulpduLength, byte pad, boolean validCrc) {
            int len = ulpdu.readableBytes();
            int padLength = (4 - ((2 + len) & 3)) & 3;
            ByteBuf f = Unpooled.buffer(2 + len + padLength + 4);
            f.writeShort(ulpduLength);
            f.writeBytes(ulpdu);
            ulpdu.release();
            for (int i = 0; i < padLength; i++) {
                f.writeByte(pad);
            }
            int crc = io.jrnic.mpa.MpaCrc.wireValue(f, 0, f.writerIndex());
            f.writeInt(validCrc ? crc : crc ^ 0x01);
            byte[] a = new byte[f.readableBytes()];
            f.readBytes(a);
            f.release();
            return a;
        }
    }
}
