package io.jrnic.interop.siw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A case that fails because the guest's own link died is run once more on a fresh guest; a case that fails with the
 * link working is not (a failure of jrnic's is never hidden by a rerun).
 */
@SiwGuestTest(capture = "")
class LinkLossRerunTest {
    /** Fails its first run, taking the guest's link down first when {@code cutLink}; passes later runs. */
    private static SiwCase failingOnce(String name, boolean cutLink, AtomicInteger runs) {
        return new SiwCase() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String proves() {
                return "the matrix's rerun rule";
            }

            @Override
            public GuestConfig config() {
                return GuestConfig.defaults();
            }

            @Override
            public String captureInterface() {
                return "lo"; // runOnce captures on some interface; this case sends nothing
            }

            @Override
            public CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception {
                if (runs.incrementAndGet() > 1) {
                    return new CaseResult(name, CaseResult.Outcome.PASS, "second run", Duration.ZERO, List.of());
                }
                if (cutLink) {
                    guest.execOk("ip link set eth0 down");
                }
                return new CaseResult(name, CaseResult.Outcome.FAIL, "first run", Duration.ZERO, List.of());
            }
        };
    }

    @Test
    void aCaseWhoseGuestLostItsLinkRunsOnceMoreOnAFreshGuest(SiwGuest guest, Path out) throws Exception {
        AtomicInteger runs = new AtomicInteger();
        CaseResult r = SiwMatrix.runOne(guest, failingOnce("link-cut", true, runs), out);
        assertEquals(2, runs.get());
        assertTrue(r.passed() && r.detail().contains("rerun once on a fresh guest") && r.detail().contains("first run"),
                r.toString());
        assertTrue(SiwMatrix.reachesHost(guest), "the fresh guest's link works");

        AtomicInteger runs2 = new AtomicInteger();
        CaseResult r2 = SiwMatrix.runOne(guest, failingOnce("link-fine", false, runs2), out);
        assertEquals(1, runs2.get(), "a failure with the link working is not rerun");
        assertEquals(CaseResult.Outcome.FAIL, r2.outcome());
    }
}
