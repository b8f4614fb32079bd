package io.jrnic.verbs;

/** A work request was mutated or posted again before its previous post was retired. */
public final class WorkRequestInFlightException extends VerbsException {
    public WorkRequestInFlightException(WorkRequest wr) {
        super(wr + " is still in flight: reuse it only after its completion");
    }
}
