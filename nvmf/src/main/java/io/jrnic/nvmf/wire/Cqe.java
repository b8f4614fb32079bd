package io.jrnic.nvmf.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A 16-octet completion queue entry, the response capsule (NVMe base 1.4 section 4.6): DW0, DW1
 * (command specific), SQHD (octets 8-9), SQID (10-11), CID (12-13), then the status field in bits
 * 15:1 of octets 14-15 (bit 0 is the phase tag, unused over fabrics). Little-endian.
 *
 * @param status the 15-bit status field: SC bits 7:0, SCT bits 10:8, CRD 12:11, M 13, DNR 14
 *               (see {@link Status})
 */
public record Cqe(int dw0, int dw1, int sqhd, int sqid, int cid, int status) {
    public static final int SIZE = 16;

    public boolean isSuccess() {
        return (status & 0x7FF) == 0;
    }

    public void encode(ByteBuffer buf, int at) {
        ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        le.putInt(at, dw0).putInt(at + 4, dw1).putShort(at + 8, (short) sqhd).putShort(at + 10, (short) sqid)
                .putShort(at + 12, (short) cid).putShort(at + 14, (short) (status << 1));
    }

    public byte[] encode() {
        byte[] b = new byte[SIZE];
        encode(ByteBuffer.wrap(b), 0);
        return b;
    }

    public static Cqe decode(ByteBuffer buf, int at) {
        ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        return new Cqe(le.getInt(at), le.getInt(at + 4), le.getShort(at + 8) & 0xFFFF, le.getShort(at + 10) & 0xFFFF,
                le.getShort(at + 12) & 0xFFFF, (le.getShort(at + 14) & 0xFFFF) >>> 1);
    }

    @Override
    public String toString() {
        return String.format("Cqe[cid=%d sqid=%d sqhd=%d status=%s dw0=0x%x]", cid, sqid, sqhd, Status.describe(status),
                dw0);
    }
}
