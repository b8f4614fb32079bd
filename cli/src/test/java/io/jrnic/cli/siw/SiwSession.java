package io.jrnic.cli.siw;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jrnic.interop.siw.GuestPool;
import io.jrnic.interop.siw.JrnicLauncher;
import io.jrnic.interop.siw.SiwImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;

/**
 * The cli module's siw tests share one guest pool per JVM (one QEMU at a time; the guests close with
 * the JVM through SiwGuest's shutdown hook), except the matrix, which closes it and boots its own lanes
 * ({@code MatrixLanes}). The jrnic side runs as a child JVM with this JVM's class
 * path and main class io.jrnic.cli.Jrnic ({@link JrnicLauncher}): no shaded jar is needed, so the
 * suite runs in a plain {@code ./mvnw test}.
 */
final class SiwSession {
    private static GuestPool pool;

    private SiwSession() {
    }

    /** True when the siw suite was asked for: -Djrnic.siw=true or JRNIC_SIW=1. */
    static boolean requested() {
        String p = System.getProperty("jrnic.siw", System.getenv("JRNIC_SIW"));
        return p != null && (p.equals("true") || p.equals("1"));
    }

    /** Skips the calling test unless the suite is requested and qemu and the image are there. */
    static void assumeAvailable() {
        assumeTrue(requested(), "siw interop tests are opt-in: -Djrnic.siw=true or JRNIC_SIW=1");
        Optional<String> why = SiwImage.unavailableReason();
        assumeTrue(why.isEmpty(), () -> "siw guest unavailable: " + why.orElse("")
                + " (build it: bash interop/siw-guest/build-image.sh)");
    }

    static synchronized GuestPool pool() {
        if (pool == null) {
            pool = new GuestPool(SiwImage.find().orElseThrow(), System.out);
        }
        return pool;
    }

    /** The jrnic CLI as a child JVM of this test JVM's class path. */
    static List<String> jrnic() {
        return JrnicLauncher.find().orElseThrow();
    }

    static Path out(String testClass) throws java.io.IOException {
        return Files.createDirectories(Paths.get("target", "siw-captures", testClass));
    }
}
