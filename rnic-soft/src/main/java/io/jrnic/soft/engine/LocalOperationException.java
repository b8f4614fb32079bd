package io.jrnic.soft.engine;

/** Thrown by a local work request's action (fast registration, invalidate, bind) to fail it with a status. */
public final class LocalOperationException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Status status;

    public LocalOperationException(Status status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public Status status() {
        return status;
    }
}
