package io.jrnic.nvmf.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class CapsuleTest {
    @Test
    void keyedSglPutsA24BitLengthAndA32BitKeyBeforeTheIdentifier() {
        byte[] b = new byte[16];
        Sgl.keyed(0x1122334455667788L, 0xABCDEF, 0xCAFEBABE, true).encode(le(b), 0);
        ByteBuffer v = le(b);
        assertEquals(0x1122334455667788L, v.getLong(0));
        assertEquals((byte) 0xEF, b[8]);
        assertEquals((byte) 0xCD, b[9]);
        assertEquals((byte) 0xAB, b[10]);
        assertEquals(0xCAFEBABE, v.getInt(11));
        assertEquals((byte) 0x4F, b[15]); // type 4, sub type F (invalidate key)
        Sgl d = Sgl.decode(v, 0);
        assertTrue(d.isKeyed());
        assertTrue(d.invalidatesKey());
        assertEquals(0xABCDEF, d.length());
        assertEquals(0xCAFEBABE, d.key());
    }

    @Test
    void keyedSglWithoutInvalidateHasSubtypeAddress() {
        byte[] b = new byte[16];
        Sgl.keyed(4096, 512, 7, false).encode(le(b), 0);
        assertEquals(0x40, b[15]);
        assertFalse(Sgl.decode(le(b), 0).invalidatesKey());
        assertThrows(IllegalArgumentException.class, () -> Sgl.keyed(0, 1 << 24, 1, false));
    }

    @Test
    void inCapsuleSglIsADataBlockWithSubtypeOffset() {
        byte[] b = new byte[16];
        Sgl.inCapsule(0, 4096).encode(le(b), 0);
        assertEquals(0x01, b[15]);
        assertEquals(4096, le(b).getInt(8));
        Sgl d = Sgl.decode(le(b), 0);
        assertTrue(d.isInCapsule());
        assertEquals(4096, d.length());
    }

    @Test
    void sqeFieldsSitWhereTheBaseSpecificationPutsThem() {
        Sqe s = new Sqe().opcode(Opcodes.IO_WRITE).psdt(Sqe.PSDT_SGL).cid(0xBEEF).nsid(1).cdw(10, 0x89ABCDEF)
                .cdw(11, 0x01234567).cdw(12, 7).sgl(Sgl.keyed(0x1000, 4096, 0x55, false));
        byte[] b = s.encode();
        ByteBuffer v = le(b);
        assertEquals(64, b.length);
        assertEquals(0x01, b[0]);
        assertEquals(0x40, b[1]); // PSDT 01b in bits 15:14 of CDW0
        assertEquals((short) 0xBEEF, v.getShort(2));
        assertEquals(1, v.getInt(4));
        assertEquals(0x1000, v.getLong(24));
        assertEquals(0x40, b[39]);
        assertEquals(0x0123456789ABCDEFL, v.getLong(40)); // SLBA
        assertEquals(7, v.getInt(48));
        Sqe d = Sqe.decode(ByteBuffer.wrap(b), 0);
        assertEquals(0xBEEF, d.cid());
        assertEquals(0x0123456789ABCDEFL, d.qword10());
        assertEquals(s.sgl(), d.sgl());
    }

    @Test
    void cqeStatusIsBits15To1OfTheLastWord() {
        Cqe c = new Cqe(0x11223344, 0x55667788, 5, 2, 0x0102, Status.LBA_OUT_OF_RANGE | Status.DNR);
        byte[] b = c.encode();
        ByteBuffer v = le(b);
        assertEquals(16, b.length);
        assertEquals(0x11223344, v.getInt(0));
        assertEquals(5, v.getShort(8));
        assertEquals(2, v.getShort(10));
        assertEquals(0x0102, v.getShort(12));
        assertEquals((short) ((0x080 | 1 << 14) << 1), v.getShort(14));
        Cqe d = Cqe.decode(ByteBuffer.wrap(b), 0);
        assertEquals(c, d);
        assertFalse(d.isSuccess());
    }

    @Test
    void connectCommandAndDataFollowTheFabricsLayout() {
        Sqe s = Fabrics.connect(9, 3, 127, 15000, Sgl.inCapsule(0, 1024));
        byte[] b = s.encode();
        ByteBuffer v = le(b);
        assertEquals(0x7F, b[0] & 0xFF);
        assertEquals(Opcodes.FCTYPE_CONNECT, b[4]);
        assertEquals(0, v.getShort(40));   // RECFMT
        assertEquals(3, v.getShort(42));   // QID
        assertEquals(127, v.getShort(44)); // SQSIZE
        assertEquals(15000, v.getInt(48)); // KATO
        Sqe d = Sqe.decode(ByteBuffer.wrap(b), 0);
        assertEquals(3, Fabrics.connectQid(d));
        assertEquals(127, Fabrics.connectSqsize(d));
        assertEquals(15000, Fabrics.connectKato(d));

        byte[] id = new byte[16];
        id[0] = 1;
        id[15] = 2;
        Fabrics.ConnectData cd = new Fabrics.ConnectData(id, 0xFFFF, "nqn.2026-01.io.jrnic:sub", "nqn.host");
        byte[] raw = cd.encode();
        assertEquals(1024, raw.length);
        assertEquals(2, raw[15]);
        assertEquals((short) 0xFFFF, le(raw).getShort(16));
        assertEquals('n', raw[256]);
        assertEquals('n', raw[512]);
        Fabrics.ConnectData back = Fabrics.ConnectData.decode(ByteBuffer.wrap(raw), 0);
        assertEquals("nqn.2026-01.io.jrnic:sub", back.subnqn());
        assertEquals("nqn.host", back.hostnqn());
        assertEquals(0xFFFF, back.cntlid());
    }

    @Test
    void propertyCommandsCarryAttribOffsetAndValue() {
        byte[] set = Fabrics.propertySet(1, Fabrics.CC, Fabrics.SIZE_4, 0x460001).encode();
        assertEquals(Opcodes.FCTYPE_PROPERTY_SET, set[4]);
        assertEquals(0, set[40]);
        assertEquals(0x14, le(set).getInt(44));
        assertEquals(0x460001L, le(set).getLong(48));
        byte[] get = Fabrics.propertyGet(2, Fabrics.CAP, Fabrics.SIZE_8).encode();
        assertEquals(Opcodes.FCTYPE_PROPERTY_GET, get[4]);
        assertEquals(1, get[40]);
        assertEquals(0, le(get).getInt(44));
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }
}
