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
}
