package io.jrnic.soft;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The figures of a {@link ConnectionIsolationStressTest} run, updated from every thread of the run, and the first
 * few descriptions of each kind of fault (for the failure message).
 */
final class IsolationTally {
    /** Descriptions kept per run; the counts go on. */
    private static final int NOTES = 40;

    final LongAdder connections = new LongAdder();
    final LongAdder resets = new LongAdder();
    /** SENDs received with their connection's tag, in order, with the WRITE before them landed whole. */
    final LongAdder messages = new LongAdder();
    /** Acks (B to A: a WRITE, then a SEND) received with their connection's tag, in order, the WRITE landed whole. */
    final LongAdder acks = new LongAdder();
    /** A receive or a landed WRITE tagged with another connection's id. */
    final LongAdder foreign = new LongAdder();
    /** Own tag, but out of sequence, of the wrong length, or with bytes that differ from what was sent. */
    final LongAdder mangled = new LongAdder();
    /** Error completions and QP async events on connections nobody reset. */
    final LongAdder untouchedFailures = new LongAdder();
    /** Error completions on connections that were reset (expected: flushes and the reset's LLP error). */
    final LongAdder failuresAfterReset = new LongAdder();
    /** Exceptions thrown by a verbs call into the test's threads other than the documented ones after a reset. */
    final LongAdder exceptions = new LongAdder();
    final LongAdder setupFailures = new LongAdder();
    /** Resets after which the responder's QP went to IDLE (an orderly close) rather than ERROR. */
    final LongAdder resetsSeenAsOrderlyClose = new LongAdder();
    /** Socket reads done by polling threads (the soft provider's receive in place), over the QPs closed. */
    final LongAdder inPlaceReads = new LongAdder();
    private final List<String> notes = new ArrayList<>();

    void note(LongAdder counter, String what) {
        counter.increment();
        synchronized (notes) {
            if (notes.size() < NOTES) {
                notes.add(what);
            }
        }
    }

    void exception(String where, Throwable t) {
        StringWriter s = new StringWriter();
        t.printStackTrace(new PrintWriter(s));
        note(exceptions, "exception from " + where + ": " + s);
    }

    String notes() {
        synchronized (notes) {
            return notes.isEmpty() ? "(none)" : String.join("\n", notes);
        }
    }

    String figures() {
        return "connections " + connections.sum() + ", resets " + resets.sum() + ", messages " + messages.sum()
                + ", acks " + acks.sum() + ", foreign " + foreign.sum() + ", mangled " + mangled.sum()
                + ", untouched failures " + untouchedFailures.sum()
                + ", failures after reset " + failuresAfterReset.sum()
                + ", exceptions " + exceptions.sum() + ", set-up failures " + setupFailures.sum()
                + ", resets the responder saw as an orderly close " + resetsSeenAsOrderlyClose.sum()
                + ", reads in place " + inPlaceReads.sum();
    }
}
