package io.jrnic.verbs;

/** A verb was called on a closed resource (or one whose parent was closed). */
public final class ResourceClosedException extends VerbsException {
    public ResourceClosedException(String what) {
        super(what + " is closed");
    }
}
