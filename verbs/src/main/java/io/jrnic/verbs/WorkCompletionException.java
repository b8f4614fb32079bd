package io.jrnic.verbs;

/** Completes a future of the async layer when the work request completed with an error status. */
public final class WorkCompletionException extends VerbsException {
    private final Completion completion;

    public WorkCompletionException(Completion completion) {
        super("work request failed: " + completion);
        this.completion = completion;
    }

    /** A private copy of the failed completion (status, terminate triple, ...). */
    public Completion completion() {
        return completion;
    }

    public CompletionStatus status() {
        return completion.status();
    }
}
