package io.jrnic.soft.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** RFC 7306 section 6: Fetch and Add with field masks, Compare and Swap with compare and swap masks. */
class AtomicsTest {

    @Test
    void fetchAddWithoutMaskIsOne64BitAdd() {
        assertEquals(0x1_0000_0000L, Atomics.fetchAdd(0xFFFF_FFFFL, 1, 0));
        assertEquals(Long.MIN_VALUE, Atomics.fetchAdd(Long.MAX_VALUE, 1, 0));
    }

    @Test
    void fetchAddMaskStopsCarriesAtFieldBoundaries() {
        // two 32-bit fields: bit 31 marks the top of the low field, so its carry is dropped
        long mask = 0x8000_0000L;
        assertEquals(0x0000_0001_0000_0000L, Atomics.fetchAdd(0xFFFF_FFFFL, 0x0000_0001_0000_0001L, mask));
    }

    @Test
    void compareSwapHonoursBothMasks() {
        assertEquals(0xAB, Atomics.compareSwap(0x12, 0x12, -1L, 0xAB, -1L));
        assertEquals(0x12, Atomics.compareSwap(0x12, 0x13, -1L, 0xAB, -1L), "no match: unchanged");
        assertEquals(0xAB, Atomics.compareSwap(0x12, 0x13, ~1L, 0xAB, -1L), "bit 0 not compared");
        assertEquals(0x1B, Atomics.compareSwap(0x12, 0x12, -1L, 0xAB, 0x0F), "only the low nibble swapped");
    }
}
