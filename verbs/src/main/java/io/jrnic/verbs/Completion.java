package io.jrnic.verbs;

import java.util.function.Consumer;

/**
 * A work completion (verbs "CQE"), mutable and reusable: applications allocate an array once with
 * {@link #array(int)} and let {@link CompletionQueue#poll(Completion[])} overwrite it.
 *
 * <p>The setters exist for providers, which fill one reusable instance per completion and hand it
 * to {@link io.jrnic.verbs.spi.QpUpcalls}; the API copies it into the CQ (fields id and qp are set
 * by the API from the work request and QP).
 */
public final class Completion {
    /** {@link #invalidatedStag()} value when no STag was invalidated. */
    public static final int NO_STAG = 0;

    long id;
    CompletionStatus status = CompletionStatus.SUCCESS;
    CompletionOpcode opcode;
    int byteLength;
    QueuePair qp;
    boolean hasInvalidatedStag;
    int invalidatedStag;
    boolean hasImmediate;
    long immediateData;
    boolean solicited;
    TerminateInfo terminate;
    Consumer<Completion> listener;

    /** {@code n} fresh completions for batch polling. */
    public static Completion[] array(int n) {
        Completion[] a = new Completion[n];
        for (int i = 0; i < n; i++) {
            a[i] = new Completion();
        }
        return a;
    }

    /** Resets every field (providers call this before filling a reused instance). */
    public Completion clear() {
        id = 0;
        status = CompletionStatus.SUCCESS;
        opcode = null;
        byteLength = 0;
        qp = null;
        hasInvalidatedStag = false;
        invalidatedStag = NO_STAG;
        hasImmediate = false;
        immediateData = 0;
        solicited = false;
        terminate = null;
        listener = null;
        return this;
    }

    /** Copies every field of {@code o}. */
    public Completion copyFrom(Completion o) {
        id = o.id;
        status = o.status;
        opcode = o.opcode;
        byteLength = o.byteLength;
        qp = o.qp;
        hasInvalidatedStag = o.hasInvalidatedStag;
        invalidatedStag = o.invalidatedStag;
        hasImmediate = o.hasImmediate;
        immediateData = o.immediateData;
        solicited = o.solicited;
        terminate = o.terminate;
        listener = o.listener;
        return this;
    }

    /** A fresh copy (for handing to other threads). */
    public Completion snapshot() {
        Completion c = new Completion().copyFrom(this);
        c.listener = null;
        return c;
    }

    // ---- reading ----

    /** The work request's id. */
    public long id() {
        return id;
    }

    public CompletionStatus status() {
        return status;
    }

    public boolean isOk() {
        return status == CompletionStatus.SUCCESS;
    }

    public CompletionOpcode opcode() {
        return opcode;
    }

    /**
     * Bytes transferred: received message length (RECV), bytes read (RDMA_READ), 8 (atomics),
     * bytes sent/written (SEND/RDMA_WRITE), 0 for IMMEDIATE_DATA and local operations.
     */
    public int byteLength() {
        return byteLength;
    }

    /** The QP the work request was posted to. */
    public QueuePair qp() {
        return qp;
    }

    /** The QP's context object (seed 001: context travels). */
    public Object qpContext() {
        return qp == null ? null : qp.context();
    }

    /** True when a received Send with Invalidate invalidated a local STag. */
    public boolean hasInvalidatedStag() {
        return hasInvalidatedStag;
    }

    public int invalidatedStag() {
        return invalidatedStag;
    }

    /** True for RECV_IMMEDIATE completions. */
    public boolean hasImmediate() {
        return hasImmediate;
    }

    public long immediateData() {
        return immediateData;
    }

    /** True when the received message carried the solicited-event bit. */
    public boolean isSolicited() {
        return solicited;
    }

    /** The Terminate that caused this error, or null. */
    public TerminateInfo terminate() {
        return terminate;
    }

    // ---- filling (providers) ----

    public Completion status(CompletionStatus s) {
        status = s;
        return this;
    }

    public Completion opcode(CompletionOpcode op) {
        opcode = op;
        return this;
    }

    public Completion byteLength(int n) {
        byteLength = n;
        return this;
    }

    public Completion invalidatedStag(int stag) {
        hasInvalidatedStag = true;
        invalidatedStag = stag;
        return this;
    }

    public Completion immediateData(long v) {
        hasImmediate = true;
        immediateData = v;
        return this;
    }

    public Completion solicited(boolean s) {
        solicited = s;
        return this;
    }

    public Completion terminate(TerminateInfo t) {
        terminate = t;
        return this;
    }

    @Override
    public String toString() {
        return "Completion[id=" + id + " " + status + " " + opcode + " len=" + byteLength
                + (terminate != null ? " terminate=" + terminate : "")
                + (hasImmediate ? " imm=0x" + Long.toHexString(immediateData) : "")
                + (hasInvalidatedStag ? String.format(" inv=0x%08x", invalidatedStag) : "") + "]";
    }
}
