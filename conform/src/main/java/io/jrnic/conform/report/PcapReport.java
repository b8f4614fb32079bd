package io.jrnic.conform.report;

import io.jrnic.conform.CaseResult;
import io.jrnic.conform.wire.Recording;
import io.jrnic.interop.pcap.ClassicPcapWriter;
import io.jrnic.interop.pcap.PacketDecoder;
import io.jrnic.interop.pcap.TcpConversationWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * One pcap of the whole run: each case's connection as a TCP conversation between the addresses and
 * ports it really used, every write as one segment, FINs and RSTs where they happened. Wireshark's
 * iWARP dissectors decode it (use "Decode As... iWARP-MPA" for a port other than the default).
 */
public final class PcapReport {
    private PcapReport() {
    }

    public static void write(List<CaseResult> results, OutputStream out) throws IOException {
        writeRecordings(results.stream().map(CaseResult::recording).toList(), out);
    }

    /** The same for bare recordings (a fuzz finding, a replay). */
    public static void writeRecordings(List<Recording> recordings, OutputStream out) throws IOException {
        ClassicPcapWriter pcap = new ClassicPcapWriter(out, PacketDecoder.LINKTYPE_ETHERNET);
        for (Recording rec : recordings) {
            if (rec == null || rec.tcpClient() == null) {
                continue;
            }
            TcpConversationWriter w = new TcpConversationWriter(pcap, rec.tcpClient(), rec.tcpServer());
            List<Recording.Chunk> chunks = rec.chunks();
            w.time(chunks.isEmpty() ? System.currentTimeMillis() * 1_000_000L : chunks.get(0).wallNanos());
            w.handshake();
            for (Recording.Chunk c : chunks) {
                w.time(c.wallNanos());
                if (c.fin() || c.rst()) {
                    w.end(c.fromTcpClient(), c.rst());
                } else if (c.bytes().length > 0) {
                    w.send(c.fromTcpClient(), c.bytes());
                }
            }
        }
        pcap.close();
    }
}
