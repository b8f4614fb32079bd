package io.jrnic.cli.perf;

import java.util.concurrent.Callable;

/**
 * Runs one call with perf's full warm-up: cli's test runs set {@link PerfConfig#QUICK_WARM_UP} (pom.xml), and the few
 * tests that keep the full rounds and passes clear it for their call and put it back after.
 */
public final class FullWarmUp {
    private FullWarmUp() {
    }

    public static <T> T of(Callable<T> call) throws Exception {
        String quick = System.clearProperty(PerfConfig.QUICK_WARM_UP);
        try {
            return call.call();
        } finally {
            if (quick != null) {
                System.setProperty(PerfConfig.QUICK_WARM_UP, quick);
            }
        }
    }
}
