package io.jrnic.cli;

import io.jrnic.interop.siw.PeerResult;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.TerminateInfo;
import java.util.ArrayList;
import java.util.List;

/** Collects what a peer behind {@code jrnic interop} saw, for its machine-readable {@link PeerResult} line. */
final class PeerReport {
    private final List<PeerResult.Wc> completions = new ArrayList<>();

    /** Records a completion (read at once: completion arrays are reused). */
    void add(Completion c) {
        completions.add(new PeerResult.Wc(c.id(), c.opcode().name(), c.status().name()));
    }

    /** The RESULT line: the Terminate received (or none), the QP state, work requests completed of posted. */
    String line(TerminateInfo t, QpState state, int completed, int posted) {
        PeerResult.Terminated term = t == null ? null
                : new PeerResult.Terminated(t.layer(), t.errorType(), t.errorCode(), t.layout().name());
        return new PeerResult(term, state.name(), completed, posted, completions).format();
    }
}
