package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class SglTest {
    @Test
    void contiguousIndexFindsSegmentsInsideOneElementOnly() {
        ByteBuf m1 = Unpooled.buffer(100);
        ByteBuf m2 = Unpooled.buffer(100);
        try {
            SoftRegion a = SoftRegion.scratch(m1);
            SoftRegion b = SoftRegion.scratch(m2);
            Sgl sgl = new Sgl().add(a, 10, 20).add(b, 5, 30); // message [0,20) in a at 10, [20,50) in b at 5
            assertEquals(10, sgl.contiguousIndex(0, 20));
            assertSame(m1, sgl.foundMemory());
            assertEquals(15, sgl.contiguousIndex(5, 15));
            assertEquals(-1, sgl.contiguousIndex(15, 10)); // crosses into the second element
            assertEquals(5, sgl.contiguousIndex(20, 30));
            assertSame(m2, sgl.foundMemory());
            assertEquals(34, sgl.contiguousIndex(49, 1));
            assertEquals(-1, sgl.contiguousIndex(49, 2)); // past the end
            assertEquals(-1, sgl.contiguousIndex(50, 1));
        } finally {
            m1.release();
            m2.release();
        }
    }
}
