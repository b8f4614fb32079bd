package io.jrnic.verbs;

/** Base of the exceptions thrown for API misuse (the caller's mistake; wire errors are completion statuses). */
public class VerbsException extends RuntimeException {
    public VerbsException(String message) {
        super(message);
    }

    public VerbsException(String message, Throwable cause) {
        super(message, cause);
    }
}
