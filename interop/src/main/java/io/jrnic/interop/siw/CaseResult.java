package io.jrnic.interop.siw;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Outcome of one matrix case.
 *
 * @param detail    what was checked and seen (on FAIL: what differed)
 * @param artifacts captures and logs the case left on the host
 */
public record CaseResult(String name, Outcome outcome, String detail, Duration elapsed, List<Path> artifacts) {
    /** PASS: every check held; FAIL: one did not; SKIP: the case could not run here. */
    public enum Outcome { PASS, FAIL, SKIP }

    public boolean passed() {
        return outcome == Outcome.PASS;
    }

    @Override
    public String toString() {
        return String.format("%-28s %-4s %6.1f s  %s", name, outcome, elapsed.toMillis() / 1000.0, detail);
    }
}
