package io.jrnic.interop.siw;

import java.nio.file.Path;

/**
 * One interoperability case run against a siw guest. The runner ({@link SiwMatrix} or the JUnit
 * extension) boots a guest with {@link #config()}, starts a capture on {@link #captureInterface()}
 * and calls {@link #run}; the case stops the capture itself when it wants to check it.
 */
public interface SiwCase {
    /** Short stable name (used for files and the CLI). */
    String name();

    /** One sentence: what a PASS proves. */
    String proves();

    /** The guest this case needs. */
    GuestConfig config();

    /** Where the per-case tcpdump listens in the guest. */
    default String captureInterface() {
        return "any";
    }

    /** Runs the case; artifacts go to {@code outDir}. Checks that fail give FAIL, not exceptions. */
    CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception;
}
