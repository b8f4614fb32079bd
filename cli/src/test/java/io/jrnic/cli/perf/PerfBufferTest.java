package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PerfBufferTest {

    @ParameterizedTest
    @EnumSource(MemoryKind.class)
    void everyByteReadsBackThroughGetAndGetAcquire(MemoryKind kind) {
        for (int size = 1; size <= 13; size++) {   // every offset within an aligned int, odd sizes at the end
            PerfBuffer b = PerfBuffer.allocate(kind, size);
            assertEquals(size, b.size());
            assertEquals(kind == MemoryKind.DIRECT, b.bytes.isDirect());
            for (int i = 0; i < size; i++) {
                assertEquals(0, b.getAcquire(i));
                byte v = (byte) (0x80 | i * 17);
                b.set(i, v);
                assertEquals(v, b.get(i), "size " + size + " byte " + i);
                assertEquals(v, b.getAcquire(i), "size " + size + " byte " + i);
                if (i > 0) {
                    assertEquals((byte) (0x80 | (i - 1) * 17), b.getAcquire(i - 1), "neighbour of " + i);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(MemoryKind.class)
    void patternFillAndCheckFindTheFirstBadByte(MemoryKind kind) {
        PerfBuffer b = PerfBuffer.allocate(kind, 1000);
        assertNotNull(b.check("fresh", 0, 1000));
        b.fill(0, 1000);
        assertNull(b.check("filled", 0, 1000));
        b.fill(600, 400);   // the pattern again from byte 600
        assertNull(b.check("second copy", 600, 400));
        b.set(700, (byte) (b.get(700) ^ 1));
        String bad = b.check("flipped", 600, 400);
        assertTrue(bad.startsWith("flipped: byte 100 of 400 is "), bad);
    }

    @Test
    void sameBytesComparesContentsAcrossKinds() {
        PerfBuffer h = PerfBuffer.allocate(MemoryKind.HEAP, 4097);
        PerfBuffer d = PerfBuffer.allocate(MemoryKind.DIRECT, 4097);
        h.fill(0, 4097);
        assertFalse(h.sameBytes(d));
        d.fill(0, 4097);
        assertTrue(h.sameBytes(d) && d.sameBytes(h));
        d.set(4096, (byte) 0);
        assertFalse(d.sameBytes(h));
        assertFalse(h.sameBytes(PerfBuffer.allocate(MemoryKind.HEAP, 4096)));
        assertThrows(IllegalArgumentException.class, () -> PerfBuffer.allocate(MemoryKind.DIRECT, 0));
    }

    @ParameterizedTest
    @EnumSource(MemoryKind.class)
    void registrationCoversExactlyTheBuffer(MemoryKind kind) {
        try (RdmaDevice dev = Rdma.open("soft")) {
            ProtectionDomain pd = dev.allocatePd();
            for (int size : new int[] {1, 6, 65536}) {
                PerfBuffer b = PerfBuffer.allocate(kind, size);
                try (MemoryRegion mr = b.register(pd, Access.LOCAL_WRITE, Access.REMOTE_WRITE)) {
                    assertEquals(size, mr.length());
                }
            }
        }
    }
}
