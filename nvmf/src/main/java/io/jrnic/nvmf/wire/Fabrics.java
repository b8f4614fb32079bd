package io.jrnic.nvmf.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Fabrics command capsules (NVMe over Fabrics 1.1 section 3): Connect (3.3), Property Get (3.4),
 * Property Set (3.5), Disconnect (3.6), and the properties' offsets (section 3.4.1 / NVMe base 1.4
 * section 3.1 registers).
 */
public final class Fabrics {
    /** Property offsets. */
    public static final int CAP = 0x00;
    public static final int VS = 0x08;
    public static final int CC = 0x14;
    public static final int CSTS = 0x1C;
    /** ATTRIB.SIZE: 0 = 4 octets, 1 = 8 octets. */
    public static final int SIZE_4 = 0;
    public static final int SIZE_8 = 1;
    /** Connect CNTLID asking for a dynamic controller. */
    public static final int CNTLID_DYNAMIC = 0xFFFF;
    /** Connect CATTR bit 2: the host disables SQ flow control (SQHD reported as 0xFFFF). */
    public static final int CATTR_DISABLE_SQ_FLOW = 1 << 2;

    private Fabrics() {
    }

    /**
     * Connect command: CDW10 RECFMT (15:0) and QID (31:16); CDW11 SQSIZE (15:0, 0's based) and
     * CATTR (23:16); CDW12 KATO in milliseconds. The 1024-octet {@link ConnectData} goes through SGL1.
     */
    public static Sqe connect(int cid, int qid, int sqsize, int kato, Sgl data) {
        return new Sqe().opcode(Opcodes.FABRICS).psdt(Sqe.PSDT_SGL).cid(cid).fctype(Opcodes.FCTYPE_CONNECT)
                .cdw(10, qid << 16).cdw(11, sqsize & 0xFFFF).cdw(12, kato).sgl(data);
    }

    /** Disconnect (section 3.6, Fabrics 1.1): ends the queue it is sent on. */
    public static Sqe disconnect(int cid) {
        return new Sqe().opcode(Opcodes.FABRICS).psdt(Sqe.PSDT_SGL).cid(cid).fctype(Opcodes.FCTYPE_DISCONNECT);
    }

    public static int connectRecfmt(Sqe s) {
        return s.cdw(10) & 0xFFFF;
    }

    public static int connectQid(Sqe s) {
        return s.cdw(10) >>> 16;
    }

    public static int connectSqsize(Sqe s) {
        return s.cdw(11) & 0xFFFF;
    }

    public static int connectCattr(Sqe s) {
        return (s.cdw(11) >>> 16) & 0xFF;
    }

    public static int connectKato(Sqe s) {
        return s.cdw(12);
    }

    /** Property Get: CDW10 ATTRIB (octet 40), CDW11 OFST (octets 44-47). The value returns in DW0-DW1. */
    public static Sqe propertyGet(int cid, int offset, int size) {
        return new Sqe().opcode(Opcodes.FABRICS).psdt(Sqe.PSDT_SGL).cid(cid).fctype(Opcodes.FCTYPE_PROPERTY_GET)
                .cdw(10, size).cdw(11, offset);
    }

    /** Property Set: ATTRIB, OFST, VALUE in octets 48-55 (CDW12-13). */
    public static Sqe propertySet(int cid, int offset, int size, long value) {
        return new Sqe().opcode(Opcodes.FABRICS).psdt(Sqe.PSDT_SGL).cid(cid).fctype(Opcodes.FCTYPE_PROPERTY_SET)
                .cdw(10, size).cdw(11, offset).cdw(12, (int) value).cdw(13, (int) (value >>> 32));
    }

    public static int propertySize(Sqe s) {
        return s.cdw(10) & 7;
    }

    public static int propertyOffset(Sqe s) {
        return s.cdw(11);
    }

    public static long propertyValue(Sqe s) {
        return Integer.toUnsignedLong(s.cdw(12)) | (long) s.cdw(13) << 32;
    }

    /**
     * Connect data (section 3.3, figure 20), 1024 octets: HOSTID octets 0-15, CNTLID 16-17, SUBNQN
     * 256-511 and HOSTNQN 512-767 (NUL-terminated UTF-8).
     */
    public record ConnectData(byte[] hostId, int cntlid, String subnqn, String hostnqn) {
        public static final int SIZE = 1024;
        private static final int NQN_FIELD = 256;

        public byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
            b.put(0, hostId, 0, Math.min(16, hostId.length));
            b.putShort(16, (short) cntlid);
            putNqn(b, 256, subnqn);
            putNqn(b, 512, hostnqn);
            return b.array();
        }

        public static ConnectData decode(ByteBuffer buf, int at) {
            ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            byte[] id = new byte[16];
            le.get(at, id);
            return new ConnectData(id, le.getShort(at + 16) & 0xFFFF, nqn(le, at + 256), nqn(le, at + 512));
        }

        private static void putNqn(ByteBuffer b, int at, String nqn) {
            byte[] s = nqn.getBytes(StandardCharsets.UTF_8);
            if (s.length >= NQN_FIELD) {
                throw new IllegalArgumentException("NQN longer than 255 octets");
            }
            b.put(at, s);
        }

        private static String nqn(ByteBuffer b, int at) {
            int n = 0;
            while (n < NQN_FIELD && b.get(at + n) != 0) {
                n++;
            }
            byte[] s = new byte[n];
            b.get(at, s);
            return new String(s, StandardCharsets.UTF_8);
        }
    }
}
