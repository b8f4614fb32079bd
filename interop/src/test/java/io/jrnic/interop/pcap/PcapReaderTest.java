package io.jrnic.interop.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PcapReaderTest {

    private static byte[] sample(ByteOrder order, boolean nanos) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ClassicPcapWriter w = new ClassicPcapWriter(bos, 113, order, nanos)) {
            w.write(1_500_000_000_123_456_789L, new byte[] {1, 2, 3});
            w.write(1_500_000_001_000_001_000L, new byte[] {9}, 60);
        }
        return bos.toByteArray();
    }

    @Test
    void readsBothByteOrdersAndBothResolutions() throws IOException {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (boolean nanos : new boolean[] {false, true}) {
                PcapReader r = new PcapReader(new ByteArrayInputStream(sample(order, nanos)), "x");
                assertEquals(113, r.linkType());
                assertEquals(nanos, r.nanosecondResolution());
                assertEquals(order == ByteOrder.LITTLE_ENDIAN, r.littleEndian());
                PcapPacket a = r.next();
                assertEquals(1, a.frame());
                assertEquals(nanos ? 1_500_000_000_123_456_789L : 1_500_000_000_123_456_000L, a.timestampNanos());
                assertArrayEquals(new byte[] {1, 2, 3}, a.data());
                PcapPacket b = r.next();
                assertEquals(2, b.frame());
                assertEquals(60, b.originalLength());
                assertEquals(1_500_000_001_000_001_000L, b.timestampNanos());
                assertNull(r.next());
            }
        }
    }

    @Test
    void readsEveryRecordOfTheSiwCaptures() throws IOException {
        for (Path p : SiwFixtures.captures()) {
            Path summary = Path.of(p.toString().replace(".pcap", ".summary.txt"));
            long expected = Files.readAllLines(summary).stream().filter(l -> !l.isBlank()).count();
            long n = 0;
            try (PcapReader r = PcapReader.open(p)) {
                assertEquals(PacketDecoder.LINKTYPE_ETHERNET, r.linkType());
                while (r.next() != null) {
                    n++;
                }
            }
            assertEquals(expected, n, p.toString());
        }
    }

    private static String error(byte[] file) {
        PcapFormatException e = assertThrows(PcapFormatException.class, () -> {
            PcapReader r = new PcapReader(new ByteArrayInputStream(file), "f.pcap");
            while (r.next() != null) {
                // drain
            }
        });
        return e.getMessage();
    }

    @Test
    void truncatedOrGarbageFilesGivePreciseErrors() throws IOException {
        byte[] ok = sample(ByteOrder.BIG_ENDIAN, false);
        assertEquals("f.pcap: truncated global header: 10 of 24 bytes", error(Arrays.copyOf(ok, 10)));
        assertEquals("f.pcap: truncated global header: 0 of 24 bytes", error(new byte[0]));
        assertEquals("f.pcap: record 1 at byte 24: truncated record header, 5 of 16 bytes",
                error(Arrays.copyOf(ok, 24 + 5)));
        assertEquals("f.pcap: record 1 at byte 24: truncated packet data, 2 of 3 bytes",
                error(Arrays.copyOf(ok, 24 + 16 + 2)));
        assertEquals("f.pcap: record 2 at byte 43: truncated record header, 1 of 16 bytes",
                error(Arrays.copyOf(ok, 24 + 16 + 3 + 1)));
        byte[] garbage = ok.clone();
        garbage[0] = 'G';
        assertTrue(error(garbage).startsWith("f.pcap: not a pcap file: magic 0x47b2c3d4"), error(garbage));
        byte[] ng = ok.clone();
        ng[0] = 0x0A;
        ng[1] = 0x0D;
        ng[2] = 0x0D;
        ng[3] = 0x0A;
        assertTrue(error(ng).contains("pcapng"));
        byte[] huge = ok.clone();
        huge[24 + 8] = 0x7F;  // captured length of record 1
        assertTrue(error(huge).startsWith("f.pcap: record 1 at byte 24: captured length 21"), error(huge));
        byte[] version = ok.clone();
        version[5] = 3;
        assertEquals("f.pcap: unsupported pcap version 3.4 (expected 2.x)", error(version));
    }
}
