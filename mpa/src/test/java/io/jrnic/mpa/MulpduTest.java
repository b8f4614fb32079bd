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

    /** A stream's reported MSS is bounded: markers keep FPDUs within FPDUPTR's reach, and a tiny MSS still carries one. */
    @Test
    void aStreamsMssIsBoundedBeforeTheMulpduIsDerived() {
        assertEquals(Mulpdu.fromMss(1448, false), Mulpdu.forStream(1448, false));
        assertEquals(Mulpdu.fromMss(16384, true), Mulpdu.forStream(65483, true));
        assertEquals(Mulpdu.fromMss(65541, false), Mulpdu.forStream(1L << 20, false));
        assertEquals(65534, Mulpdu.forStream(65541, false)); // 4-octet alignment of the MSS costs one octet
        assertEquals(Mulpdu.fromMss(128, false), Mulpdu.forStream(0, false));
    }

    /** The per-position ULPDU is the largest whose FPDU fits the budget: one octet more does not fit. */
    @Test
    void maxUlpduWithinIsTheLargestThatFitsAtEveryPosition() {
        for (boolean markers : new boolean[] {false, true}) {
            for (int budget = 0; budget <= 3000; budget++) {
                for (long p = 0; p < 1024; p += 4) {
                    int u = Markers.maxUlpduWithin(p, markers, budget);
                    String at = "markers " + markers + " budget " + budget + " pos " + p;
                    if (u < 0) {
                        assertTrue(Markers.rawLength(p, markers, 0) > budget, at);
                    } else {
                        assertTrue(Markers.rawLength(p, markers, u) <= budget, at);
                        assertTrue(Markers.rawLength(p, markers, u + 1) > budget, at);
                    }
                }
            }
        }
    }

    /**
     * MSS 1448 with markers: sized from its stream position, every FPDU of a long run takes exactly 1448 octets on
     * the wire (one FPDU per segment), carrying 1430 octets of ULPDU where it meets three markers and 1434 where two;
     * sized by the fixed MULPDU (1430) an FPDU with two markers is 4 octets short and the run drifts off the segments.
     */
    @Test
    void withMarkersEveryFpduSizedFromItsPositionFillsTheSegment() {
        int mss = 1448;
        long pos = 0;
        int two = 0;
        int three = 0;
        for (int i = 0; i < 2000; i++) {
            int u = Markers.maxUlpduWithin(pos, true, mss);
            assertEquals(mss, Markers.rawLength(pos, true, u), "FPDU " + i + " at " + pos);
            if (u == 1434) {
                two++;
            } else {
                assertEquals(1430, u, "FPDU " + i);
                three++;
            }
            assertTrue(u >= Mulpdu.fromMss(mss, true));
            pos += mss;
        }
        assertTrue(two > 0 && three > 0, two + " " + three);
        assertEquals(mss, Markers.maxRawLength(true, Mulpdu.fromMss(mss, true)), "the fixed MULPDU's largest FPDU");
        long drift = 0;
        boolean short4 = false;
        for (int i = 0; i < 10; i++) {
            short4 |= Markers.rawLength(drift, true, Mulpdu.fromMss(mss, true)) < mss;
            drift += Markers.rawLength(drift, true, Mulpdu.fromMss(mss, true));
        }
        assertTrue(short4, "the fixed MULPDU leaves some FPDU short of the segment");
    }
}
