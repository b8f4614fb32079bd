package io.jrnic.interop.decode;

import io.jrnic.interop.pcap.PacketDecoder;
import io.jrnic.interop.pcap.PcapFormatException;
import io.jrnic.interop.pcap.PcapPacket;
import io.jrnic.interop.pcap.PcapReader;
import io.jrnic.interop.pcap.TcpReassembler;
import io.jrnic.interop.pcap.TcpSegment;
import java.io.IOException;
import java.nio.file.Path;

/** Runs a capture through pcap reading, TCP reassembly and the MPA/DDP/RDMAP analyzer. */
public final class CaptureDecoder {
    private CaptureDecoder() {
    }

    /** Counts of one decode run. */
    public record Summary(long packets, long tcpSegments, int mpaStreams) {
    }

    /**
     * Decodes a classic pcap file, streaming records to {@code sink}.
     *
     * @throws PcapFormatException if the file is not classic pcap, uses an unsupported link type,
     *     or is truncated/corrupt (what was decoded before the bad record has been delivered)
     */
    public static Summary decode(Path file, DecodeOptions options, DecodeSink sink) throws IOException {
        MpaStreamAnalyzer analyzer = new MpaStreamAnalyzer(options, sink);
        TcpReassembler reassembler = new TcpReassembler(analyzer);
        PacketDecoder packets = new PacketDecoder(note ->
                sink.onViolation(new Violation(Check.CAPTURE_INCOMPLETE, -1, null, -1, -1, note)));
        long n = 0;
        long tcp = 0;
        try (PcapReader reader = PcapReader.open(file)) {
            if (!PacketDecoder.supported(reader.linkType())) {
                throw new PcapFormatException(file + ": unsupported link type " + reader.linkType()
                        + " (supported: 0 NULL, 1 Ethernet, 12/14/101 raw IP, 108 LOOP, 113/276 Linux cooked, 228/229 IPv4/IPv6)");
            }
            PcapPacket p;
            while ((p = reader.next()) != null) {
                n++;
                TcpSegment s = packets.decode(p);
                if (s != null) {
                    tcp++;
                    reassembler.accept(s);
                }
            }
        }
        reassembler.finish();
        analyzer.finish();
        return new Summary(n, tcp, analyzer.streams());
    }
}
