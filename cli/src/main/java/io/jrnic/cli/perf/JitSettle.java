package io.jrnic.cli.perf;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * When a warm-up may stop: the JIT's accumulated compilation time ({@link CompilationMXBean}) grew by less than
 * {@link #QUIET_SHARE} of a warm-up round's wall time over the last round, or {@link #MAX_ROUNDS} rounds ran. A fixed
 * warm-up is not enough on a saturated 2-core machine: C2 competes with the run for the cores and a profile of a
 * measured 16-QP run after 4 s of warm-up still showed 15 % of the CPU in the compiler threads, tier-2 code being
 * replaced by tier 3 and 4 during the run. Without the bean (a JVM that does not report it) one round is taken.
 */
final class JitSettle {
    /** A round is quiet when the compilers' time grew by less than this share of its wall time. */
    static final double QUIET_SHARE = 0.02;
    /** At most this many rounds. */
    static final int MAX_ROUNDS = 20;

    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean monitored = jit != null && jit.isCompilationTimeMonitoringSupported();
    private long lastMillis = monitored ? jit.getTotalCompilationTime() : 0;
    private long lastGrowth;
    private int rounds;

    /** Called after each round of {@code roundNanos}: true when the warm-up may stop. */
    boolean settled(long roundNanos) {
        rounds++;
        if (!monitored) {
            return true;
        }
        long now = jit.getTotalCompilationTime();
        lastGrowth = now - lastMillis;
        lastMillis = now;
        return quiet(lastGrowth, roundNanos) || rounds >= MAX_ROUNDS;
    }

    static boolean quiet(long growthMillis, long roundNanos) {
        return growthMillis < QUIET_SHARE * TimeUnit.NANOSECONDS.toMillis(roundNanos);
    }

    String describe() {
        if (!monitored) {
            return "warm-up: 1 round (this JVM does not report compilation time)";
        }
        return "warm-up: " + rounds + " round(s); the JIT compiled for " + lastGrowth + " ms in the last"
                + (rounds >= MAX_ROUNDS ? " (round limit reached)" : "");
    }
}
