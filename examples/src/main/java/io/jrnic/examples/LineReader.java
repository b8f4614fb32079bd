package io.jrnic.examples;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/** Streaming mode: reads ASCII lines from a blocking socket; {@link #leftover()} is what it read beyond the last line. */
final class LineReader {
    private final SocketChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(8192); // write mode between calls

    LineReader(SocketChannel ch) {
        this.ch = ch;
    }

    String readLine() throws IOException {
        while (true) {
            for (int i = 0; i < buf.position(); i++) {
                if (buf.get(i) == '\n') {
                    byte[] line = new byte[i];
                    buf.flip();
                    buf.get(line).get();
                    buf.compact();
                    return new String(line, StandardCharsets.US_ASCII);
                }
            }
            if (!buf.hasRemaining()) {
                throw new IOException("line longer than " + buf.capacity() + " bytes");
            }
            if (ch.read(buf) < 0) {
                throw new EOFException("peer closed in streaming mode");
            }
        }
    }

    /** Reads until at least {@code total} bytes are buffered (a read may bring more: they stay buffered). */
    void readUntil(int total) throws IOException {
        while (buf.position() < total) {
            if (ch.read(buf) < 0) {
                throw new EOFException("peer closed in streaming mode");
            }
        }
    }

    int buffered() {
        return buf.position();
    }

    byte get(int i) {
        return buf.get(i);
    }

    /** Bytes read beyond the last line, ready for reading (hand them to jrnic). */
    ByteBuffer leftover() {
        return buf.duplicate().flip();
    }

    static void writeLine(SocketChannel ch, String line) throws IOException {
        ByteBuffer b = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.US_ASCII));
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }
}
