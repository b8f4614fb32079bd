package io.jrnic.nvmf.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A 64-octet submission queue entry, the head of a command capsule (NVMe base 1.4 section 4.2;
 * NVMe over Fabrics 1.1 section 2.1): sixteen little-endian dwords. CDW0 holds the opcode (bits
 * 7:0), PSDT (bits 15:14) and the command identifier (bits 31:16); dword 1 the NSID (for a Fabrics
 * command octet 4 is FCTYPE); octets 24-39 the SGL1 data pointer; CDW10-15 the command's fields.
 * Mutable: built with the setters, written with {@link #encode}.
 */
public final class Sqe {
    public static final int SIZE = 64;
    /** PSDT 01b: SGLs for data, metadata pointer a contiguous buffer (what Linux hosts send). */
    public static final int PSDT_SGL = 1;
    private static final int SGL_AT = 24;
    private final int[] dw = new int[16];
    private Sgl sgl = Sgl.keyed(0, 0, 0, false);

    public int opcode() {
        return dw[0] & 0xFF;
    }

    public Sqe opcode(int op) {
        dw[0] = (dw[0] & ~0xFF) | (op & 0xFF);
        return this;
    }

    /** PSDT, bits 15:14 of CDW0. */
    public int psdt() {
        return (dw[0] >>> 14) & 3;
    }

    public Sqe psdt(int v) {
        dw[0] = (dw[0] & ~0xC000) | (v & 3) << 14;
        return this;
    }

    public int cid() {
        return dw[0] >>> 16;
    }

    public Sqe cid(int cid) {
        dw[0] = (dw[0] & 0xFFFF) | cid << 16;
        return this;
    }

    public int nsid() {
        return dw[1];
    }

    public Sqe nsid(int v) {
        dw[1] = v;
        return this;
    }

    /** FCTYPE of a Fabrics command (octet 4). */
    public int fctype() {
        return dw[1] & 0xFF;
    }

    public Sqe fctype(int v) {
        dw[1] = v & 0xFF;
        return this;
    }

    public Sgl sgl() {
        return sgl;
    }

    public Sqe sgl(Sgl s) {
        sgl = s;
        return this;
    }

    /** Command dword {@code n} (0..15). */
    public int cdw(int n) {
        return dw[n];
    }

    public Sqe cdw(int n, int v) {
        if (n == 0 || n == 1 || (n >= 6 && n <= 9)) {
            throw new IllegalArgumentException("dword " + n + " has a field accessor");
        }
        dw[n] = v;
        return this;
    }

    /** CDW10-11 as one 64-bit value (Read/Write SLBA). */
    public long qword10() {
        return Integer.toUnsignedLong(dw[10]) | (long) dw[11] << 32;
    }

    /** Writes the entry at {@code at}. */
    public void encode(ByteBuffer buf, int at) {
        ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16; i++) {
            if (i < 6 || i > 9) {
                le.putInt(at + 4 * i, dw[i]);
            }
        }
        le.putLong(at + 16, 0); // MPTR: no metadata
        sgl.encode(le, at + SGL_AT);
    }

    public byte[] encode() {
        byte[] b = new byte[SIZE];
        encode(ByteBuffer.wrap(b), 0);
        return b;
    }

    /** Reads an entry at {@code at}; the buffer must hold {@link #SIZE} octets there. */
    public static Sqe decode(ByteBuffer buf, int at) {
        ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        Sqe s = new Sqe();
        for (int i = 0; i < 16; i++) {
            s.dw[i] = le.getInt(at + 4 * i);
        }
        s.sgl = Sgl.decode(le, at + SGL_AT);
        return s;
    }

    @Override
    public String toString() {
        return String.format("Sqe[opc=0x%02x cid=%d nsid=%d sgl=%s cdw10=0x%x]", opcode(), cid(), nsid(), sgl, dw[10]);
    }
}
