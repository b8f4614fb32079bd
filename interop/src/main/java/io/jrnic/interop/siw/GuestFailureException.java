package io.jrnic.interop.siw;

/**
 * The guest stopped answering: its kernel panicked or QEMU exited ({@link Kind#DEAD}), or the
 * control channel stayed silent past the deadline ({@link Kind#HUNG}), or it never reached
 * "siw ready" ({@link Kind#BOOT}). The message carries the tail of the console log.
 */
public final class GuestFailureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind { BOOT, DEAD, HUNG }

    private final Kind kind;
    private final String consoleTail;

    public GuestFailureException(Kind kind, String what, String consoleTail) {
        super(kind + ": " + what + "\n--- guest console (tail) ---\n" + consoleTail);
        this.kind = kind;
        this.consoleTail = consoleTail;
    }

    public Kind kind() {
        return kind;
    }

    public String consoleTail() {
        return consoleTail;
    }
}
