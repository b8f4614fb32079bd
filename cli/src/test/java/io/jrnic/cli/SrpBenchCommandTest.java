package io.jrnic.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SrpBenchCommandTest {

    @Test
    void tinyRunPrintsEveryWorkloadForBothTransportsAndVerifies() {
        CliRun r = CliRun.of("srp-bench", "--qd", "1,2", "--seconds", "0.05", "--reps", "1", "--device-mib", "2");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("jrnic IOPS") && r.out().contains("tcp IOPS"), r.out());
        for (String w : new String[] {"randread_4k", "randwrite_4k", "seqread_1m", "seqwrite_1m"}) {
            assertEquals(2, r.outLines().stream().filter(l -> l.startsWith(w)).count(), r.out());
        }
        assertTrue(r.out().matches("(?s).*verified [1-9][0-9]* blocks read back, 0 errors.*"), r.out());
    }

    @Test
    void badOptionsExitTwo() {
        assertEquals(2, CliRun.of("srp-bench", "--qd", "65").exit());
        assertEquals(2, CliRun.of("srp-bench", "--seconds", "0").exit());
    }
}
