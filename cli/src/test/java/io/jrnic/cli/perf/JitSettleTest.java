package io.jrnic.cli.perf;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JitSettleTest {
    private static final long TWO_SECONDS = TimeUnit.SECONDS.toNanos(2);

    @Test
    void aRoundIsQuietWhenTheCompilersTookLessThanTwoPercentOfIt() {
        assertTrue(JitSettle.quiet(39, TWO_SECONDS));
        assertFalse(JitSettle.quiet(40, TWO_SECONDS));
        assertFalse(JitSettle.quiet(900, TWO_SECONDS));
    }

    @Test
    void theWarmUpEndsAtTheRoundLimitEvenWhileTheJitIsBusy() {
        JitSettle s = new JitSettle();
        int rounds = 1;
        // a round of 0 ns is never quiet unless nothing compiled; the limit must end it anyway
        while (!s.settled(0) && rounds < JitSettle.MAX_ROUNDS + 5) {
            rounds++;
        }
        assertTrue(rounds <= JitSettle.MAX_ROUNDS);
    }
}
