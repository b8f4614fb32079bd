package io.jrnic.cli.perf;

import io.jrnic.mpa.Mulpdu;
import io.jrnic.verbs.QueuePair;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.zip.CRC32C;

/**
 * The TCP bandwidth baseline with MPA's CRC work ({@code jrnic perf --tcp-crc}): the stream carries each message as
 * frames of at most {@code frameLength} payload octets, each followed by the CRC32C of its payload, which the sender
 * computes on every write and the sink checks on every frame, as an MPA sender and receiver do for every FPDU (RFC 5044
 * section 4.3: the CRC covers each FPDU; the frame length is the row's MULPDU, so the CRC runs over pieces of the same
 * length). No other framing is added (an FPDU's 2-octet length and DDP/RDMAP header are left out): the baseline
 * isolates the CRC, so RDMA against it is the rest of jrnic's work. The sink answers with the payload octets it
 * received, or -1 when a CRC did not match.
 */
final class TcpCrcStream {
    /** The kind byte of a CRC sink connection, followed by the frame length and the message size (two ints). */
    static final byte SINK = 'F';
    static final int CRC_LENGTH = 4;

    private TcpCrcStream() {
    }

    /**
     * The frame length for a baseline beside {@code qp}: the MULPDU its connection sends with, {@code configured} when
     * given ({@code --mulpdu}), else derived from its stream's MSS as the soft RNIC does; 0 when the MSS is unknown.
     */
    static int frameFor(QueuePair qp, int configured, boolean markers) {
        if (configured > 0) {
            return configured;
        }
        Long mss = qp.stats().tcp().get("sndMss");
        return mss == null || mss <= 0 ? 0 : Mulpdu.forStream(mss, markers);
    }

    /** Octets a message of {@code size} takes on the stream: its payload and one CRC per frame (frame length 0: none). */
    static int wireLength(int size, int frameLength) {
        return frameLength == 0 ? size : size + CRC_LENGTH * ((size + frameLength - 1) / frameLength);
    }

    /**
     * The sending side: {@code messages} messages laid out as frames in one reused direct buffer; with frame length 0
     * the messages back to back and no CRC (the plain baseline).
     */
    static final class Sender {
        private final ByteBuffer buf;
        private final int frameLength;
        private final int wire;
        private final CRC32C crc = new CRC32C();

        Sender(int size, int messages, int frameLength) {
            if (frameLength < 0) {
                throw new IllegalArgumentException("frame length must be >= 0: " + frameLength);
            }
            this.frameLength = frameLength;
            this.wire = wireLength(size, frameLength);
            this.buf = ByteBuffer.allocateDirect(wire * messages);
            for (int m = 0, at = 0; m < messages; m++) {
                for (int k = 0; k < size; k++) {
                    buf.put(at++, Pattern.at(k));
                    if (frameLength > 0 && ((k + 1) % frameLength == 0 || k + 1 == size)) {
                        at += CRC_LENGTH;
                    }
                }
            }
        }

        /** The first {@code messages} messages with every frame's CRC computed now, ready to write. */
        ByteBuffer frames(int messages) {
            int end = messages * wire;
            for (int at = 0; frameLength > 0 && at < end; ) {
                int msgEnd = at + wire;
                while (at < msgEnd) {
                    int n = Math.min(frameLength, msgEnd - at - CRC_LENGTH);
                    crc.reset();
                    buf.limit(at + n).position(at);
                    crc.update(buf);
                    buf.limit(buf.capacity());
                    buf.putInt(at + n, (int) crc.getValue());
                    at += n + CRC_LENGTH;
                }
            }
            return buf.clear().limit(end);
        }
    }

    /**
     * The receiving side's parse of the stream: frames of the announced lengths, each CRC checked; with frame length 0
     * it only counts octets (the plain baseline).
     */
    static final class Checker {
        private final int size;
        private final int frameLength;
        private final CRC32C crc = new CRC32C();
        private long payload;
        private long mismatches;
        private int messageLeft;
        private int frameLeft;
        private int crcNeeded;
        private int crcReceived;

        Checker(int size, int frameLength) {
            if (size < 1 || frameLength < 0) {
                throw new IllegalArgumentException("size must be >= 1 and frame length >= 0: " + size + ", " + frameLength);
            }
            this.size = size;
            this.frameLength = frameLength;
        }

        /** Consumes the buffer's remaining octets, wherever frames and CRCs are cut. */
        void feed(ByteBuffer b) {
            if (frameLength == 0) {
                payload += b.remaining();
                b.position(b.limit());
                return;
            }
            while (b.hasRemaining()) {
                if (frameLeft == 0 && crcNeeded == 0) {
                    if (messageLeft == 0) {
                        messageLeft = size;
                    }
                    frameLeft = Math.min(frameLength, messageLeft);
                    crc.reset();
                }
                if (frameLeft > 0) {
                    int n = Math.min(frameLeft, b.remaining());
                    int limit = b.limit();
                    b.limit(b.position() + n);
                    crc.update(b);
                    b.limit(limit);
                    frameLeft -= n;
                    messageLeft -= n;
                    payload += n;
                    if (frameLeft == 0) {
                        crcNeeded = CRC_LENGTH;
                        crcReceived = 0;
                    }
                } else {
                    crcReceived = crcReceived << 8 | (b.get() & 0xff);
                    if (--crcNeeded == 0 && crcReceived != (int) crc.getValue()) {
                        mismatches++;
                    }
                }
            }
        }

        long payload() {
            return payload;
        }

        long mismatches() {
            return mismatches;
        }

        /** True when the stream ended on a frame boundary (always without frames). */
        boolean whole() {
            return frameLeft == 0 && crcNeeded == 0 && messageLeft == 0;
        }
    }

    /** Opens a CRC sink connection for messages of {@code size} in frames of {@code frameLength}. */
    static SocketChannel open(java.net.InetSocketAddress addr, int size, int frameLength) throws IOException {
        SocketChannel ch = TcpPerf.open(addr, SINK);
        try {
            TcpPerf.writeFully(ch, ByteBuffer.allocate(8).putInt(0, frameLength).putInt(4, size));
            return ch;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    /** The server side: checks frames until end of stream, then answers with the payload count (-1: a bad CRC). */
    static void sink(SocketChannel ch) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(8);
        TcpPerf.readFully(ch, header);
        Checker c = new Checker(header.getInt(4), header.getInt(0));
        ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
        while (true) {
            buf.clear();
            if (ch.read(buf) < 0) {
                break;
            }
            c.feed(buf.flip());
        }
        long answer = c.mismatches() == 0 && c.whole() ? c.payload() : -1;
        TcpPerf.writeFully(ch, ByteBuffer.allocate(8).putLong(0, answer));
    }
}
