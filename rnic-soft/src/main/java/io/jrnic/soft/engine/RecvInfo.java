package io.jrnic.soft.engine;

import io.jrnic.rdmap.Terminate;

/** Details of a completed receive, reused by the engine for every receive completion. */
public final class RecvInfo {
    public int byteLength;
    public boolean immediate;
    public long immediateData;
    public boolean invalidated;
    public int invalidatedStag;
    public boolean solicited;
    public Terminate terminate;
    public boolean terminateReceived;

    RecvInfo clear() {
        byteLength = 0;
        immediate = false;
        immediateData = 0;
        invalidated = false;
        invalidatedStag = 0;
        solicited = false;
        terminate = null;
        terminateReceived = false;
        return this;
    }
}
