package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code run}'s arguments that are refused before anything boots. */
class SiwInteropArgsTest {
    @Test
    void aLaneCountThatIsNotAPositiveNumberIsAUsageErrorBeforeAnyBoot() {
        for (String bad : List.of("0", "-1", "two", "1000")) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = SiwInterop.run(List.of("run", "--lanes", bad, "boot-stock"), new PrintStream(new ByteArrayOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(64, rc, bad);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--lanes: a number of guests from 1 to 999, not " + bad),
                    err.toString(StandardCharsets.UTF_8));
        }
    }
}
