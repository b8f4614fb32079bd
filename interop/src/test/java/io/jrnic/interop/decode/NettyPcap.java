package io.jrnic.interop.decode;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.pcap.PcapWriteHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a TCP conversation to a pcap through Netty's {@link PcapWriteHandler} on an
 * {@link EmbeddedChannel} ({@code forceTcpChannel}: it synthesises the handshake, and every
 * outbound write / inbound read becomes exactly one TCP segment, so segmentation is ours).
 * The pipeline is the Initiator's: writes go Initiator to Responder, reads come back.
 */
final class NettyPcap {
    static final InetSocketAddress INITIATOR = new InetSocketAddress("10.1.0.1", 40001);
    static final InetSocketAddress RESPONDER = new InetSocketAddress("10.1.0.2", 7174);

    private NettyPcap() {
    }

    /** Request, Reply, then i2r and r2i segments alternately (i2r first). */
    static void write(Path file, byte[] request, byte[] reply, List<byte[]> i2r, List<byte[]> r2i) throws IOException {
        write(file, INITIATOR, request, reply, i2r, r2i);
    }

    /** The same from {@code initiator} to {@link #RESPONDER}. */
    static void write(Path file, InetSocketAddress initiator, byte[] request, byte[] reply, List<byte[]> i2r,
                      List<byte[]> r2i) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            PcapWriteHandler h = PcapWriteHandler.builder().forceTcpChannel(initiator, RESPONDER, false).build(out);
            EmbeddedChannel ch = new EmbeddedChannel(h);
            send(ch, true, request);
            send(ch, false, reply);
            for (int i = 0; i < Math.max(i2r.size(), r2i.size()); i++) {
                if (i < i2r.size()) {
                    send(ch, true, i2r.get(i));
                }
                if (i < r2i.size()) {
                    send(ch, false, r2i.get(i));
                }
            }
            ch.finishAndReleaseAll();
            h.close();
        }
    }

    private static void send(EmbeddedChannel ch, boolean fromInitiator, byte[] data) {
        ByteBuf b = Unpooled.wrappedBuffer(data);
        if (fromInitiator) {
            ch.writeOutbound(b);
            ByteBuf o = ch.readOutbound();
            o.release();
        } else {
            ch.writeInbound(b);
            ByteBuf i = ch.readInbound();
            i.release();
        }
    }
}
