package io.jrnic.soft.net;

import io.netty.handler.pcap.PcapWriteHandler;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A capture of one stream as it looked on the wire: Netty's {@link PcapWriteHandler} first in the
 * pipeline (it sees the exact bytes written to and read from the socket, set-up frames included),
 * writing a classic pcap with a synthesized TCP handshake, segments of at most 65495 octets, and the
 * closing FIN. The handler closes the file when the stream closes.
 */
public final class Capture {
    /** The handler's name in the pipeline. */
    public static final String NAME = "pcap";

    private Capture() {
    }

    /** The file of the n-th stream captured under {@code base}: {@code base} itself, then "-n" before its extension. */
    public static Path nth(Path base, int n) {
        if (n == 1) {
            return base;
        }
        String name = base.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        return base.resolveSibling(stem + "-" + n + ext);
    }

    public static PcapWriteHandler handler(Path file) throws IOException {
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
        return PcapWriteHandler.builder().captureZeroByte(false).writePcapGlobalHeader(true).build(out);
    }
}
