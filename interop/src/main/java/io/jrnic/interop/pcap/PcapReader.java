package io.jrnic.interop.pcap;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reader of classic libpcap files: both byte orders, microsecond (0xA1B2C3D4) and nanosecond
 * (0xA1B23C4D) magic. A truncated or corrupt file raises {@link PcapFormatException} naming the
 * record and byte offset; pcapng is recognised and refused by name.
 */
public final class PcapReader implements Closeable {
    /** Largest record accepted (Wireshark's limit for ordinary link types). */
    public static final int MAX_RECORD = 262_144;
    static final int GLOBAL_HEADER = 24;
    static final int RECORD_HEADER = 16;

    private final InputStream in;
    private final String name;
    private final boolean littleEndian;
    private final boolean nanos;
    private final int linkType;
    private final long snapLen;
    private long offset;
    private long frame;

    public PcapReader(InputStream in, String name) throws IOException {
        this.in = in;
        this.name = name;
        byte[] h = new byte[GLOBAL_HEADER];
        int n = readFully(h, GLOBAL_HEADER);
        if (n >= 4) {
            long magicBe = be32(h, 0);
            if (magicBe == 0x0A0D0D0AL) {
                throw error("is pcapng (block type 0x0a0d0d0a); only classic pcap is supported "
                        + "(convert with: editcap -F pcap IN OUT)");
            }
        }
        if (n < GLOBAL_HEADER) {
            throw error("truncated global header: " + n + " of " + GLOBAL_HEADER + " bytes");
        }
        long magic = be32(h, 0);
        if (magic == 0xA1B2C3D4L || magic == 0xA1B23C4DL) {
            littleEndian = false;
        } else if (magic == 0xD4C3B2A1L || magic == 0x4D3CB2A1L) {
            littleEndian = true;
        } else {
            throw error(String.format("not a pcap file: magic 0x%08x at byte 0", magic));
        }
        nanos = magic == 0xA1B23C4DL || magic == 0x4D3CB2A1L;
        int major = u16(h, 4);
        if (major != 2) {
            throw error("unsupported pcap version " + major + "." + u16(h, 6) + " (expected 2.x)");
        }
        snapLen = u32(h, 16);
        linkType = (int) (u32(h, 20) & 0x0FFFFFFF);  // upper bits: FCS length flags
        offset = GLOBAL_HEADER;
    }

    public static PcapReader open(Path path) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
        try {
            return new PcapReader(in, path.toString());
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    public int linkType() {
        return linkType;
    }

    public boolean nanosecondResolution() {
        return nanos;
    }

    public boolean littleEndian() {
        return littleEndian;
    }

    public long snapLen() {
        return snapLen;
    }

    /** The next record, or null at a clean end of file. */
    public PcapPacket next() throws IOException {
        byte[] h = new byte[RECORD_HEADER];
        long at = offset;
        int n = readFully(h, RECORD_HEADER);
        if (n == 0) {
            return null;
        }
        long no = frame + 1;
        if (n < RECORD_HEADER) {
            throw error("record " + no + " at byte " + at + ": truncated record header, " + n + " of "
                    + RECORD_HEADER + " bytes");
        }
        long sec = u32(h, 0);
        long frac = u32(h, 4);
        long incl = u32(h, 8);
        long orig = u32(h, 12);
        if (frac >= (nanos ? 1_000_000_000L : 1_000_000L)) {
            throw error("record " + no + " at byte " + at + ": sub-second field " + frac + " out of range");
        }
        if (incl > MAX_RECORD) {
            throw error("record " + no + " at byte " + at + ": captured length " + incl
                    + " exceeds the limit of " + MAX_RECORD + " bytes (corrupt file?)");
        }
        byte[] data = new byte[(int) incl];
        int got = readFully(data, data.length);
        if (got < incl) {
            throw error("record " + no + " at byte " + at + ": truncated packet data, " + got + " of "
                    + incl + " bytes");
        }
        frame = no;
        long ts = sec * 1_000_000_000L + (nanos ? frac : frac * 1000L);
        return new PcapPacket(no, ts, linkType, data, (int) Math.min(Math.max(orig, incl), Integer.MAX_VALUE));
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private PcapFormatException error(String what) {
        return new PcapFormatException(name + ": " + what);
    }

    private int readFully(byte[] b, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = in.read(b, n, len - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        offset += n;
        return n;
    }

    private int u16(byte[] b, int i) {
        return littleEndian ? (b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 : (b[i] & 0xFF) << 8 | (b[i + 1] & 0xFF);
    }

    private long u32(byte[] b, int i) {
        return littleEndian
                ? (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24
                : be32(b, i);
    }

    private static long be32(byte[] b, int i) {
        return (b[i] & 0xFFL) << 24 | (b[i + 1] & 0xFFL) << 16 | (b[i + 2] & 0xFFL) << 8 | (b[i + 3] & 0xFFL);
    }
}
