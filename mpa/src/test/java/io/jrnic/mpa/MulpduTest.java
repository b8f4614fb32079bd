package io.jrnic.mpa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MulpduTest {
    /** siw at MTU 1500: MSS 1448 carries 1442-octet ULPDUs (1428 tagged payload + 14). */
    @Test
    void siwFigureWithoutMarkers() {
        assertEquals(1442, Mulpdu.fromMss(1448, false));
        assertEquals(1430, Mulpdu.fromMss(1448, true)); // 3 marker positions allowed for
    }

    /** For every MSS the FPDU fits at every stream position, and one octet more does not fit somewhere. */
    @Test
    void fpduFitsAtEveryStreamPositionAndIsTight() {
        for (int mss = 8; mss <= 3000; mss++) {
            for (boolean markers : new boolean[] {false, true}) {
                int m;
                try {
                    m = Mulpdu.fromMss(mss, markers);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                for (long p = 0; p < 512; p += 4) {
                    assertTrue(Markers.rawLength(p, markers, m) <= mss, "mss " + mss + " pos " + p);
                }
                if (!markers) {
                    assertTrue(Markers.rawLength(0, false, m + 1) > mss, "not tight at mss " + mss);
                }
            }
        }
        assertEquals(65535, Mulpdu.fromMss(70000, false));
        assertThrows(IllegalArgumentException.class, () -> Mulpdu.fromMss(7, false));
    }
}
