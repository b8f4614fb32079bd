package io.jrnic.soft.engine;

/** One posted receive: the caller's token, the resolved scatter list, and what the message said. */
public final class RqEntry {
    public final Object token;
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
