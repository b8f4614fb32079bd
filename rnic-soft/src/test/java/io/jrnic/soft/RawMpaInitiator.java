package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.mpa.CrcMode;
import io.jrnic.mpa.MpaInitiator;
import io.jrnic.mpa.MpaOptions;
import io.jrnic.mpa.MpaParameters;
import io.jrnic.mpa.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

/** A hand-driven MPA initiator on a plain socket, for tests that play a raw peer against the soft RNIC. */
final class RawMpaInitiator {
    private RawMpaInitiator() {
    }

    /** Sends an MPA Request asking for CRC, reads the Reply byte by byte, returns what was negotiated. */
    static MpaParameters handshake(Socket s) throws Exception {
        return handshake(s, MpaOptions.builder().crc(CrcMode.WANTED).build());
    }

    /** The same with the given Request options (e.g. peer-to-peer). */
    static MpaParameters handshake(Socket s, MpaOptions options) throws Exception {
        InputStream in = s.getInputStream();
        MpaInitiator init = new MpaInitiator(options);
        write(s.getOutputStream(), init.request());
        ByteBuf acc = Unpooled.buffer();
        Outcome o;
        do {
            int c = in.read();
            assertTrue(c >= 0, "Reply cut short");
            acc.writeByte(c);
            o = init.feed(acc);
        } while (o.status() == Outcome.Status.NEED_MORE);
        acc.release();
        assertEquals(Outcome.Status.DONE, o.status(), String.valueOf(o));
        return o.parameters();
    }

    /** Writes the readable bytes of {@code b} and releases it. */
    static void write(OutputStream out, ByteBuf b) throws Exception {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        b.release();
        out.write(a);
        out.flush();
    }

    /** Frames {@code ulpdu} as one FPDU with the negotiated options, writes it and releases it. */
    static void send(Socket s, MpaParameters p, ByteBuf ulpdu) throws Exception {
        ByteBuf fpdu = Unpooled.buffer();
        p.newEncoder().encode(ulpdu, fpdu);
        ulpdu.release();
        write(s.getOutputStream(), fpdu);
    }

    /**
     * Reads the stream to its end, handing each ULPDU to {@code onUlpdu} (an LLP error fails the test), pausing
     * {@code pauseMillis} after every read of up to 64 KiB (a slow reader) when positive.
     */
    static void readToEnd(Socket s, MpaParameters p, long pauseMillis,
                          java.util.function.Consumer<ByteBuf> onUlpdu) throws Exception {
        io.jrnic.mpa.FpduDecoder dec = p.newDecoder(new io.jrnic.mpa.FpduListener() {
            @Override
            public void onFpdu(ByteBuf u, long pos, io.jrnic.mpa.CrcCheck crc) {
                onUlpdu.accept(u);
            }

            @Override
            public void onError(io.jrnic.mpa.LlpError error, long pos, String detail) {
                throw new AssertionError(error + " at " + pos + ": " + detail);
            }
        });
        InputStream in = s.getInputStream();
        byte[] chunk = new byte[64 * 1024];
        int n;
        while ((n = in.read(chunk)) > 0) {
            dec.feed(Unpooled.wrappedBuffer(chunk, 0, n));
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
        }
    }

    /** A ULPDU: the 16-bit DDP/RDMAP control word, then what {@code rest} writes. */
    static ByteBuf ulpdu(int control, java.util.function.Consumer<ByteBuf> rest) {
        ByteBuf u = Unpooled.buffer();
        u.writeShort(control);
        rest.accept(u);
        return u;
    }
}
