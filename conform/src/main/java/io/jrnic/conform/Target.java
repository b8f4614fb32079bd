package io.jrnic.conform;

/**
 * Hooks around each case ({@code --hook-before}, {@code --hook-after}, {@code --hook-health} on the
 * command line): a target such as {@code rping -s} serves one connection and must be restarted before
 * each case; a crashed one must be detected and brought back.
 */
public interface Target {
    /** Before each case: start or restart the target's side (responder role: start its client). */
    default void before(ConformCase c) throws Exception {
    }

    /** After each case: collect or stop the target's side. */
    default void after(ConformCase c) throws Exception {
    }

    /** After each case: null when the target is alive, else why it is not (the case is then CRASHED). */
    default String health() throws Exception {
        return null;
    }

    /**
     * Polled during each execution's watch window and before the next one ({@code --hook-crashed}): null
     * while the target has not crashed, else the evidence (an oops line from a kernel console). Sees
     * what {@link #health} cannot: a kernel that oopsed in a worker still answers TCP.
     */
    default String crashed() throws Exception {
        return null;
    }

    /** No hooks: a target that serves connection after connection by itself ({@code jrnic rping -s -P}). */
    Target NONE = new Target() {
    };
}
