package io.jrnic.conform;

/**
 * How firmly the RFC states the rule a case checks. Under {@link #SHOULD} (a recommendation, or a rule
 * that binds the sender but leaves the receiver's reaction open) an accepted violation is reported as
 * {@link Verdict#DEVIATES}, not {@link Verdict#FAIL}.
 */
public enum Strictness {
    MUST,
    SHOULD
}
