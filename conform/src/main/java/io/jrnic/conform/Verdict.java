package io.jrnic.conform;

/** The outcome of one case. */
public enum Verdict {
    /** The target did what the RFC allows. */
    PASS,
    /** The violation was caught but reported otherwise (another code or layer, a close without Terminate,
     *  a Terminate in siw's bitfield layout), or a SHOULD rule was not followed. */
    DEVIATES,
    /** A violation was accepted, or a valid exchange was broken. */
    FAIL,
    /** The target died: it refused the next connection or its health check failed. */
    CRASHED,
    /** The case does not apply to what the target negotiated (e.g. markers refused). */
    SKIPPED,
    /** The tool could not run the case (the target never reached the point of injection). */
    ERROR
}
