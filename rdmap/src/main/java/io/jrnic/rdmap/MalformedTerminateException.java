package io.jrnic.rdmap;

/** A Terminate ULPDU whose bytes do not follow the layout of the chosen decoding mode. */
public final class MalformedTerminateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedTerminateException(String message) {
        super(message);
    }
}
