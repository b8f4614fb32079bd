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

    /** The guest interface the per-case tcpdump watches ("eth0" is captured on the host's tap: {@link GuestCapture}). */
    default String captureInterface() {
        return "any";
    }

    /** Runs the case; artifacts go to {@code outDir}. Checks that fail give FAIL, not exceptions. */
    CaseResult run(SiwGuest guest, GuestCapture capture, Path outDir) throws Exception;

    /**
     * True when the case needs a guest no other case has used (and leaves its guest to no other case):
     * cases that may damage siw's state on purpose. Default: false (guests are shared per configuration).
     */
    default boolean freshGuest() {
        return false;
    }

    /**
     * True when a FAIL was caused by the guest-side tool's own environment, not by the protocol
     * exchange, so that one rerun is honest (e.g. perftest's CPU clock calibration under TCG).
     * The rerun is recorded in the result's detail. Default: never.
     */
    default boolean guestToolEnvironmentFailure(CaseResult failed) {
        return false;
    }

    /**
     * For {@code jrnic interop --peer HOST} (a real siw machine): the command the user runs on the siw
     * host ({@code jrnicHost}: this machine's address as the siw host reaches it), or empty when the case
     * needs the guest (siw-only cases).
     */
    default java.util.Optional<String> siwSideCommand(String jrnicHost) {
        return java.util.Optional.empty();
    }

    /** For {@code --peer}: runs jrnic's side only, connecting only to {@code host} (or listening for it); no capture. */
    default CaseResult runPeer(String host, Path outDir) throws Exception {
        return new CaseResult(name(), CaseResult.Outcome.SKIP, "needs the guest", java.time.Duration.ZERO, java.util.List.of());
    }
}
