package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class MpaCrcTest {

    private static byte[] vector(int kind) {
        byte[] b = new byte[32];
        for (int i = 0; i < 32; i++) {
            b[i] = (byte) switch (kind) {
                case 0 -> 0x00;
                case 1 -> 0xFF;
                case 2 -> i;
                default -> 31 - i;
            };
        }
        return b;
    }

    /** The four vectors of the wire reference 2.3, as wire bytes, on heap and direct buffers. */
    @Test
    void referenceVectorsGiveTheWireBytes() {
        int[][] expected = {
            {0xAA, 0x36, 0x91, 0x8A}, {0x43, 0xAB, 0xA8, 0x62}, {0x4E, 0x79, 0xDD, 0x46}, {0x5C, 0xDB, 0x3F, 0x11}};
        for (int v = 0; v < 4; v++) {
            for (ByteBuf buf : new ByteBuf[] {
                Unpooled.wrappedBuffer(vector(v)), ByteBufAllocator.DEFAULT.directBuffer(32).writeBytes(vector(v))}) {
                try {
                    int wire = MpaCrc.wireValue(buf);
                    ByteBuf field = Unpooled.buffer(4).writeInt(wire);
                    for (int i = 0; i < 4; i++) {
                        assertEquals(expected[v][i], field.getUnsignedByte(i), "vector " + v + " byte " + i);
                    }
                    assertEquals(wire, new MpaCrc().update(buf, buf.readerIndex(), 32).wireValue());
                } finally {
                    buf.release();
                }
            }
        }
    }

    @Test
    void incrementalUpdatesAndCompositeBuffersMatchOneShot() {
        byte[] data = vector(2);
        CompositeByteBuf comp = Unpooled.compositeBuffer();
        comp.addComponent(true, Unpooled.wrappedBuffer(data, 0, 10));
        comp.addComponent(true, Unpooled.wrappedBuffer(data, 10, 22));
        try {
            int oneShot = MpaCrc.wireValue(Unpooled.wrappedBuffer(data));
            assertEquals(oneShot, MpaCrc.wireValue(comp));
            MpaCrc crc = new MpaCrc();
            ByteBuf heap = Unpooled.wrappedBuffer(data);
            crc.update(heap, 0, 5).update(heap, 5, 27);
            assertEquals(oneShot, crc.wireValue());
            assertEquals(0x46DD794E, crc.value());
            assertEquals(0x4E79DD46, MpaCrc.toWire(0x46DD794E));
        } finally {
            comp.release();
        }
    }
}
