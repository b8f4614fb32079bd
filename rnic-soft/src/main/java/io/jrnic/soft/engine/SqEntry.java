package io.jrnic.soft.engine;

/**
 * One posted send work request as the engine runs it: the consumer's fields, copied at post time,
 * and the progress made on the wire. {@link #token} is the caller's object, handed back on retirement.
 * Reusable ({@link #reuse}): a QP keeps a ring of them sized by its send queue depth.
 */
public final class SqEntry {
    public Object token;
    public SqOpcode opcode;
    public final Sgl sgl = new Sgl();
    public boolean signaled;
    public boolean fence;
    public boolean solicited;
    public int remoteStag;
    public long remoteTo;
    public int invalidateStag;
    public long compareAdd;
    public long swap;
    public long immediateData;
    /** REG_MR / LOCAL_INVALIDATE / BIND_MW: the action, run in SQ order on the event loop. */
    public Runnable localAction;

    // progress, event loop only
    boolean started;
    boolean done;
    /** The Read Request / Atomic Request MSN (QN 1) or the Send MSN (QN 0) this WR used. */
    long msn;
    /** Phase of RDMA_WRITE_WITH_IMMEDIATE: false while the Write goes, true for the Immediate Data. */
    boolean immediatePhase;
    Status status = Status.SUCCESS;
    int byteLength;
    /** Zero-copy: the last WR covered by one {@link WireMark}. */
    boolean lastOnWire;

    public SqEntry(Object token, SqOpcode opcode) {
        this.token = token;
        this.opcode = opcode;
    }

    /** An empty entry for a ring; {@link #reuse} fills it. */
    public SqEntry() {
    }

    /** Makes a retired entry new: every field back to its initial value, then {@code token} and {@code opcode}. */
    public SqEntry reuse(Object token, SqOpcode opcode) {
        this.token = token;
        this.opcode = opcode;
        sgl.clear();
        signaled = false;
        fence = false;
        solicited = false;
        remoteStag = 0;
        remoteTo = 0;
        invalidateStag = 0;
        compareAdd = 0;
        swap = 0;
        immediateData = 0;
        localAction = null;
        started = false;
        done = false;
        msn = 0;
        immediatePhase = false;
        status = Status.SUCCESS;
        byteLength = 0;
        lastOnWire = false;
        return this;
    }

    @Override
    public String toString() {
        return "SqEntry[" + opcode + " token=" + token + " len=" + sgl.total() + "]";
    }
}
