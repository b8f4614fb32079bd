package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SoakCommandTest {
    @Test
    void aShortSoakMovesItsVolumeWithoutMismatch() {
        CliRun r = CliRun.of("soak", "--bytes", "64M", "--qps", "2", "--interval", "1");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("; 0 mismatches, 0 failed work requests"), r.out());
        long moved = Long.parseLong(r.out().replaceAll("(?s).*jrnic soak: ([0-9,]+) bytes in.*", "$1").replace(",", ""));
        assertTrue(moved >= 64_000_000L, r.out());
    }

    @Test
    void volumesTakeDecimalSuffixes() {
        assertEquals(64_000_000L, SoakCommand.parseBytes("64M"));
        assertEquals(10_000_000_000L, SoakCommand.parseBytes("10G"));
        assertEquals(2, CliRun.of("soak", "--bytes", "lots").exit());
        assertEquals(2, CliRun.of("soak", "--qps", "0").exit());
        assertEquals(2, CliRun.of("soak", "--dead-peer-timeout", "1").exit()); // at least 2 s, or 0 (off)
        assertEquals(2, CliRun.of("soak", "--dead-peer-timeout", "-1").exit());
        assertEquals(2, CliRun.of("soak", "--tcp-rto-min", "201").exit()); // 1..200 ms, or 0 (the kernel's)
        assertEquals(2, CliRun.of("soak", "--stall-timeout", "-1").exit());
    }
}
