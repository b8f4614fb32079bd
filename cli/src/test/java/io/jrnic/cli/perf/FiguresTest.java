package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FiguresTest {

    @Test
    void bandwidthUsesDecimalMegabytes() {
        BwFigure f = new BwFigure(1000, 1_000_000, 1_000_000_000L);   // 1e9 bytes in 1 s
        assertEquals(1000.0, f.megabytesPerSecond(), 1e-9);
        assertEquals(0.001, f.megaMessagesPerSecond(), 1e-12);
    }

    @Test
    void messageRateCountsMessagesPerMicrosecond() {
        BwFigure f = new BwFigure(3_000_000, 64, 2_000_000_000L);
        assertEquals(1.5, f.megaMessagesPerSecond(), 1e-12);
        assertEquals(96.0, f.megabytesPerSecond(), 1e-9);
    }

    @Test
    void latencyPercentilesAreNearestRank() {
        long[] ns = new long[100];
        for (int i = 0; i < 100; i++) {
            ns[i] = (100 - i) * 1000L;   // 100 us .. 1 us, unsorted
        }
        LatFigure f = LatFigure.of(ns, 100, 1.0);
        assertEquals(1.0, f.minUs(), 1e-12);
        assertEquals(50.0, f.p50Us(), 1e-12);
        assertEquals(99.0, f.p99Us(), 1e-12);
        assertEquals(100.0, f.maxUs(), 1e-12);
        assertEquals(100, f.iterations());
    }

    @Test
    void latencyScaleHalvesRoundTrips() {
        LatFigure f = LatFigure.of(new long[] {4000, 2000, 6000, 999_999}, 3, 0.5);   // 4th sample ignored
        assertEquals(1.0, f.minUs(), 1e-12);
        assertEquals(2.0, f.p50Us(), 1e-12);
        assertEquals(3.0, f.p99Us(), 1e-12);
        assertEquals(3.0, f.maxUs(), 1e-12);
    }

    @Test
    void rankOfSmallSamples() {
        assertEquals(0, LatFigure.rank(50, 1));
        assertEquals(0, LatFigure.rank(99, 1));
        assertEquals(0, LatFigure.rank(50, 2));
        assertEquals(1, LatFigure.rank(99, 2));
        assertThrows(IllegalArgumentException.class, () -> LatFigure.of(new long[0], 0, 1));
    }

    @Test
    void p999IsTheNearestRankAtATenthOfAPercent() {
        assertEquals(998, LatFigure.rank(99.9, 1000));
        assertEquals(1997, LatFigure.rank(99.9, 2000));
        assertEquals(99, LatFigure.rank(99.9, 100));
        long[] ns = new long[1000];
        for (int i = 0; i < 1000; i++) {
            ns[i] = (i + 1) * 1000L;
        }
        assertEquals(999.0, LatFigure.of(ns, 1000, 1.0).p999Us(), 1e-12);
    }

    @Test
    void ratiosAreRdmaOverTcp() {
        PerfCase bw = new PerfCase(Op.WRITE, Kind.BW, 64, 10);
        Result r = Result.bw(bw, new BwFigure(10, 64, 1000), new BwFigure(10, 64, 4000), null, null);
        assertEquals(4.0, r.ratio(), 1e-12);
        PerfCase lat = new PerfCase(Op.SEND, Kind.LAT, 64, 3);
        Result l = Result.lat(lat, LatFigure.of(new long[] {30_000, 30_000, 30_000}, 3, 0.5),
                LatFigure.of(new long[] {10_000, 10_000, 10_000}, 3, 0.5), null, null);
        assertEquals(3.0, l.ratio(), 1e-12);
        assertTrue(Double.isNaN(Result.bw(bw, null, new BwFigure(1, 1, 1), "x", null).ratio()));
        assertTrue(Double.isNaN(Result.lat(lat, l.rdmaLat(), null, null, null).ratio()));
    }

    @Test
    void patternIsNotPeriodicAt256AndTagsAreNonZero() {
        byte[] b = new byte[1024];
        Pattern.fill(b, 0, 1024);
        assertEquals(-1, Pattern.firstMismatch(b, 0, 1024));
        boolean differs = false;
        for (int k = 0; k < 256; k++) {
            differs |= b[k] != b[k + 256];
        }
        assertTrue(differs);
        b[700] ^= 1;
        assertEquals(700, Pattern.firstMismatch(b, 0, 1024));
        for (long i = 0; i < 600; i++) {
            assertTrue(Pattern.tag(i) != 0);
            assertTrue(Pattern.tag(i) != Pattern.tag(i + 1));
        }
    }

    @Test
    void defaultPlanCoversEveryOperationAndSize() {
        var plan = PerfConfig.defaults().plan();
        // per op: batched 64 KiB, per-message 64 B, batched 64 B (9); latency: 3 busy-polling, 2 blocking, 2 virtual
        assertEquals(16, plan.size());
        assertEquals(new PerfCase(Op.WRITE, Kind.BW, 65536, 16000, 16, 16), plan.get(0));
        assertEquals(new PerfCase(Op.WRITE, Kind.BW_MSG, 64, 100000, 1, 1), plan.get(1));
        assertEquals(new PerfCase(Op.WRITE, Kind.BW, 64, 100000), plan.get(2));
        assertEquals(new PerfCase(Op.SEND, Kind.LAT, 64, 2000), plan.get(11));
        assertEquals(new PerfCase(Op.READ, Kind.LAT_BLOCK, 64, 2000), plan.get(12));
        assertEquals(new PerfCase(Op.SEND, Kind.LAT_BLOCK, 64, 2000), plan.get(13));
        assertEquals(new PerfCase(Op.READ, Kind.LAT_BLOCK_VT, 64, 2000), plan.get(14));
        assertEquals(new PerfCase(Op.SEND, Kind.LAT_BLOCK_VT, 64, 2000), plan.get(15));
        var custom = PerfConfig.defaults().withSizes(java.util.List.of(1, 4096)).withIterations(7)
                .withOps(java.util.EnumSet.of(Op.READ)).withKinds(java.util.EnumSet.of(Kind.BW, Kind.LAT, Kind.LAT_BLOCK))
                .plan();
        assertEquals(java.util.List.of(new PerfCase(Op.READ, Kind.BW, 1, 7), new PerfCase(Op.READ, Kind.BW, 4096, 7),
                new PerfCase(Op.READ, Kind.LAT, 1, 7), new PerfCase(Op.READ, Kind.LAT, 4096, 7),
                new PerfCase(Op.READ, Kind.LAT_BLOCK, 1, 7), new PerfCase(Op.READ, Kind.LAT_BLOCK, 4096, 7)), custom);
        assertThrows(IllegalArgumentException.class, () -> PerfConfig.defaults().withSizes(java.util.List.of(0)));
    }

    @Test
    void withSizesGivenEverySizeHasAPerMessageRowNextToItsBatchedRow() {
        var plan = PerfConfig.defaults().withSizes(java.util.List.of(64, 4096)).withIterations(9)
                .withOps(java.util.EnumSet.of(Op.SEND)).withKinds(java.util.EnumSet.of(Kind.BW, Kind.BW_MSG))
                .withPosting(8, 4).plan();
        assertEquals(java.util.List.of(new PerfCase(Op.SEND, Kind.BW_MSG, 64, 9), new PerfCase(Op.SEND, Kind.BW, 64, 9, 8, 4),
                new PerfCase(Op.SEND, Kind.BW_MSG, 4096, 9), new PerfCase(Op.SEND, Kind.BW, 4096, 9, 8, 4)), plan);
        assertEquals("send bw-msg", plan.get(0).name());
        assertTrue(Kind.BW_MSG.bandwidth() && Kind.BW.bandwidth() && !Kind.BW_MSG.latency());
        // a list or a signal interval longer than the window shrinks to it (the defaults with a small window)
        var small = new PerfConfig(java.util.EnumSet.of(Op.WRITE), java.util.EnumSet.of(Kind.BW), java.util.List.of(64), 5,
                4, true, false, 0, 2, 20, true).plan();
        assertEquals(java.util.List.of(new PerfCase(Op.WRITE, Kind.BW, 64, 5, 4, 4)), small);
        // per-message and latency rows post one WR at a time, each signaled
        assertThrows(IllegalArgumentException.class, () -> new PerfCase(Op.WRITE, Kind.BW_MSG, 64, 5, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> new PerfCase(Op.SEND, Kind.LAT, 64, 5, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> PerfConfig.defaults().withPosting(0, 1));
        assertEquals(new PerfCase(Op.WRITE, Kind.BW, 64, 2, 8, 4), PerfConfig.warmUp(new PerfCase(Op.WRITE, Kind.BW, 64, 8, 8, 4)));
    }

    @Test
    void latencyPlanHasBusyPollingRowsForEveryOperationAndBlockingRowsForReadAndSend() {
        var plan = PerfConfig.defaults().withKinds(java.util.EnumSet.of(Kind.LAT, Kind.LAT_BLOCK)).plan();
        assertTrue(Kind.LAT_BLOCK_VT.blocking() && Kind.LAT_BLOCK_VT.virtualThreads() && !Kind.LAT_BLOCK_VT.has(Op.WRITE));
        assertEquals(java.util.List.of(new PerfCase(Op.WRITE, Kind.LAT, 64, 2000), new PerfCase(Op.READ, Kind.LAT, 64, 2000),
                new PerfCase(Op.SEND, Kind.LAT, 64, 2000), new PerfCase(Op.READ, Kind.LAT_BLOCK, 64, 2000),
                new PerfCase(Op.SEND, Kind.LAT_BLOCK, 64, 2000)), plan);
        assertEquals("lat", Kind.LAT.label());
        assertEquals("lat-block", Kind.LAT_BLOCK.label());
        assertEquals("send lat-block", plan.get(4).name());
        assertTrue(Kind.LAT_BLOCK.latency() && Kind.LAT.latency() && !Kind.BW.latency());
        // WRITE latency polls memory: no blocking form, so a WRITE-only blocking plan is empty
        assertTrue(PerfConfig.defaults().withKinds(java.util.EnumSet.of(Kind.LAT_BLOCK))
                .withOps(java.util.EnumSet.of(Op.WRITE)).plan().isEmpty());
    }

    @Test
    void warmUpRunsAQuarterOfTheSameTestAndAtLeastOneIteration() {
        assertEquals(new PerfCase(Op.WRITE, Kind.BW, 65536, 1000), PerfConfig.warmUp(new PerfCase(Op.WRITE, Kind.BW, 65536, 4000)));
        assertEquals(new PerfCase(Op.SEND, Kind.LAT, 64, 500), PerfConfig.warmUp(new PerfCase(Op.SEND, Kind.LAT, 64, 2000)));
        assertEquals(new PerfCase(Op.READ, Kind.BW, 1, 1), PerfConfig.warmUp(new PerfCase(Op.READ, Kind.BW, 1, 3)));
    }
}
