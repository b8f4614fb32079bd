package io.jrnic.cli.tools;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * perftest's {@code struct pingpong_dest} as sent over the rdma_cm exchange connection (perftest 6.x, e.g.
 * Debian's 4.5-0.17 package, VERSION "6.06"): {@value #SIZE} bytes, every field big-endian, laid out with
 * the C struct's natural alignment: lid, out_reads, qpn, psn, rkey (4 bytes each), 4 bytes of alignment
 * padding (perftest leaves stack garbage there; jrnic sends zeros, readers ignore it), vaddr (8),
 * gid (16), srqn (4), gid_index (4). Confirmed byte for byte on a siw-to-siw capture.
 */
public record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, byte[] gid, int srqn,
                           int gidIndex) {
    public static final int SIZE = 56;
    static final int LID = 0;
    static final int OUT_READS = 4;
    static final int QPN = 8;
    static final int PSN = 12;
    static final int RKEY = 16;
    static final int VADDR = 24;
    static final int GID = 32;
    static final int GID_LENGTH = 16;
    static final int SRQN = 48;
    static final int GID_INDEX = 52;

    public PerftestDest {
        gid = gid == null ? new byte[GID_LENGTH] : gid.clone();
        if (gid.length != GID_LENGTH) {
            throw new IllegalArgumentException("gid must be 16 bytes, got " + gid.length);
        }
    }

    /** The all-zero dest perftest exchanges as a barrier around the rdma_cm test connection. */
    public static PerftestDest zero() {
        return new PerftestDest(0, 0, 0, 0, 0, 0L, null, 0, 0);
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** Writes the {@value #SIZE} wire bytes at {@code offset} of {@code dst}. */
    public void write(byte[] dst, int offset) {
        ByteBuffer b = ByteBuffer.wrap(dst, offset, SIZE).slice().order(ByteOrder.BIG_ENDIAN);
        b.putInt(LID, lid).putInt(OUT_READS, outReads).putInt(QPN, qpn).putInt(PSN, psn).putInt(RKEY, rkey)
                .putInt(RKEY + 4, 0).putLong(VADDR, vaddr).put(GID, gid).putInt(SRQN, srqn).putInt(GID_INDEX, gidIndex);
    }

    public byte[] toBytes() {
        byte[] b = new byte[SIZE];
        write(b, 0);
        return b;
    }

    /** Reads a dest from {@value #SIZE} bytes at {@code offset} of {@code src}. */
    public static PerftestDest read(byte[] src, int offset) {
        if (src.length - offset < SIZE) {
            throw new IllegalArgumentException("pingpong_dest needs " + SIZE + " bytes, got " + (src.length - offset));
        }
        ByteBuffer b = ByteBuffer.wrap(src, offset, SIZE).slice().order(ByteOrder.BIG_ENDIAN);
        byte[] gid = new byte[GID_LENGTH];
        b.get(GID, gid);
        return new PerftestDest(b.getInt(LID), b.getInt(OUT_READS), b.getInt(QPN), b.getInt(PSN), b.getInt(RKEY),
                b.getLong(VADDR), gid, b.getInt(SRQN), b.getInt(GID_INDEX));
    }

    /** perftest's "local/remote address" line (lid, QPN, PSN; plus out reads, rkey and vaddr for RDMA verbs). */
    public String describe(String side, Perftest.Verb verb) {
        StringBuilder s = new StringBuilder(String.format(" %s address: LID %#06x QPN %#06x PSN %#08x", side, lid, qpn, psn));
        if (verb == Perftest.Verb.READ) {
            s.append(String.format(" OUT %#04x", outReads));
        }
        if (verb != Perftest.Verb.SEND) {
            s.append(String.format(" RKey %#08x VAddr %#016x", rkey, vaddr));
        }
        return s.toString();
    }
}
