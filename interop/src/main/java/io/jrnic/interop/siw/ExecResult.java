package io.jrnic.interop.siw;

import java.time.Duration;

/**
 * Outcome of one command run in the guest (or in the host namespace).
 *
 * @param command  what was run
 * @param exitCode its exit status; 137 when the guest killed it at its timeout
 * @param output   stdout and stderr, interleaved
 * @param elapsed  wall time the host waited
 */
public record ExecResult(String command, int exitCode, String output, Duration elapsed) {
    /** Exit status of a command the guest killed at its deadline (SIGKILL). */
    public static final int KILLED = 137;

    public boolean ok() {
        return exitCode == 0;
    }

    /** This result, or an {@link IllegalStateException} carrying command, status and output. */
    public ExecResult orThrow() {
        if (!ok()) {
            throw new IllegalStateException(this.toString());
        }
        return this;
    }

    @Override
    public String toString() {
        return "`" + command + "` exited " + exitCode + " after " + elapsed.toMillis() + " ms:\n" + output;
    }
}
