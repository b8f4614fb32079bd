package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CpuClockTest {
    private static final String STAT = "cpu  100 10 50 800 20 5 15 7 0 0\n"
            + "cpu0 50 5 25 400 10 3 7 4 0 0\n"
            + "cpu1 50 5 25 400 10 2 8 3 0 0\n"
            + "intr 12345\n";

    @Test
    void busyIsUserNiceSystemIrqSoftirqAndTotalAddsIdleIowaitSteal() {
        // busy 100 + 10 + 50 + 5 + 15 = 180; total 180 + 800 + 20 + 7 = 1007; two cpuN lines
        assertArrayEquals(new long[] {180, 1007, 2}, CpuClock.parseProcStat(STAT));
    }

    @Test
    void aTextWithoutTheCpuLineIsUnknown() {
        assertArrayEquals(new long[] {-1, -1, -1}, CpuClock.parseProcStat("intr 1\n"));
        assertArrayEquals(new long[] {-1, -1, -1}, CpuClock.parseProcStat("cpu  1 2 3\n"));
    }

    @Test
    void coresAndSecondsPerGbComeFromTheDifferenceOfTwoSamples() {
        // 2 s of wall time; this process used 3 s of CPU; the machine (2 cores) was busy 750 of 1000 ticks
        CpuClock.Sample a = new CpuClock.Sample(1_000_000_000L, 5_000_000_000L, 1000, 4000, 2);
        CpuClock.Sample b = new CpuClock.Sample(3_000_000_000L, 8_000_000_000L, 1750, 5000, 2);
        CpuClock.Use u = CpuClock.between(a, b);
        assertEquals(1.5, u.processCores(), 1e-9);
        assertEquals(1.5, u.hostCores(), 1e-9);
        // 3 core-seconds over 6 GB moved: 0.5 s/GB
        assertEquals(0.5, u.processSecondsPerGb(6e9), 1e-9);
        assertEquals(0.5, u.hostSecondsPerGb(6e9), 1e-9);
        BwFigure f = new BwFigure(6000, 1_000_000, 2_000_000_000L, u);
        assertEquals(0.5, f.hostSecondsPerGb(), 1e-9);
        assertEquals(1.5, f.processCores(), 1e-9);
    }

    @Test
    void anUnknownSourceGivesNaNNotZero() {
        CpuClock.Sample a = new CpuClock.Sample(0, -1, -1, -1, -1);
        CpuClock.Sample b = new CpuClock.Sample(1_000_000_000L, -1, -1, -1, -1);
        CpuClock.Use u = CpuClock.between(a, b);
        assertTrue(Double.isNaN(u.processCores()) && Double.isNaN(u.hostCores()));
        assertTrue(Double.isNaN(new BwFigure(1, 1, 1).hostSecondsPerGb()));
    }

    @Test
    void thisMachineReadsBothSourcesDuringWork() {
        CpuClock.Sample a = CpuClock.now();
        long x = 0;
        long until = System.nanoTime() + 200_000_000L; // both sources count 10 ms ticks
        while (System.nanoTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        CpuClock.Use u = CpuClock.between(a, CpuClock.now());
        assertTrue(x >= 0);
        assertTrue(u.processCores() > 0, "a spinning thread used no CPU time: " + u);
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat"))) {
            assertTrue(u.hostCores() > 0, "a spinning thread left the machine idle: " + u);
        }
    }
}
