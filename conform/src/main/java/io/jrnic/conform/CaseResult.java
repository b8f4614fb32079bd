package io.jrnic.conform;

import io.jrnic.conform.wire.Recording;

/** One case's outcome. */
public record CaseResult(ConformCase conformCase, Observation observation, Verdict verdict, String reason, long millis,
                         Recording recording) {
    public CaseResult withVerdict(Verdict v, String why) {
        return new CaseResult(conformCase, observation, v, why, millis, recording);
    }
}
