package io.jrnic.verbs;

/**
 * A reusable receive work request (verbs "Post RQ"/"Post SRQ"): an id and a scatter list whose
 * regions must have LOCAL_WRITE. An incoming untagged message (Send or RFC 7306 Immediate Data)
 * consumes the oldest posted receive (RFC 5041 section 5.3: MSN order).
 */
public final class RecvWr extends WorkRequest {

    public RecvWr() {
    }

    /** A receive with the given id and SGEs. */
    public static RecvWr of(long id, Sge... sges) {
        return new RecvWr().id(id).local(sges);
    }

    public RecvWr id(long id) {
        doId(id);
        return this;
    }

    /** Replaces the SGE list. */
    public RecvWr local(Sge... sges) {
        doClearSges();
        for (Sge s : sges) {
            doAddSge(s.region(), s.offset(), s.length());
        }
        return this;
    }

    public RecvWr local(MemoryRegion mr, int offset, int length) {
        doClearSges();
        doAddSge(mr, offset, length);
        return this;
    }

    public RecvWr addSge(MemoryRegion mr, int offset, int length) {
        doAddSge(mr, offset, length);
        return this;
    }

    @Override
    public String toString() {
        return "RecvWr[id=" + id + " sges=" + sgeCount() + " len=" + totalLength() + "]";
    }
}
