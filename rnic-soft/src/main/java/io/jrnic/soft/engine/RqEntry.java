package io.jrnic.soft.engine;

/**
 * One posted receive: the caller's token, the resolved scatter list, and what the message said. Reusable
 * ({@link #reuse}): a QP keeps a ring of them sized by its receive queue depth.
 */
public final class RqEntry {
    public Object token;
    public final Sgl sgl = new Sgl();

    // filled by the Receiver from the message that consumed it
    boolean immediate;
    long immediateData;
    boolean invalidated;
    int invalidatedStag;
    boolean solicited;

    public RqEntry(Object token) {
        this.token = token;
    }

    /** Makes a retired entry new for {@code token}. */
    public RqEntry reuse(Object token) {
        this.token = token;
        sgl.clear();
        immediate = false;
        immediateData = 0;
        invalidated = false;
        invalidatedStag = 0;
        solicited = false;
        return this;
    }

    void fillInfo(RecvInfo info) {
        info.immediate = immediate;
        info.immediateData = immediateData;
        info.invalidated = invalidated;
        info.invalidatedStag = invalidatedStag;
        info.solicited = solicited;
    }

    @Override
    public String toString() {
        return "RqEntry[token=" + token + " len=" + sgl.total() + "]";
    }
}
