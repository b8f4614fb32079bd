package io.jrnic.soft.mem;

/**
 * {@link MemoryTable#lookup} with the slot of the last STag found kept, for one owner that looks up STags one at a
 * time (a stream's checks, a QP's posting side): successive lookups mostly name the STag the one before named, and the
 * table's lookup inverts the index permutation each time (a four-round Feistel network, spec-notes/security.md). For
 * that STag the entry now in the kept slot is the answer if it carries the STag (the slot is where the table's lookup
 * would look); else (freed, re-registered with another key, re-keyed by a fast registration) the table is asked. The
 * answer is always the table's, and no entry is kept reachable here after it is freed. Not thread safe: one per owner.
 */
public final class StagMemo {
    private final MemoryTable table;
    private int lastStag;
    private int lastSlot;

    public StagMemo(MemoryTable table) {
        this.table = table;
    }

    /** As {@link MemoryTable#lookup}. */
    public SoftRegion lookup(int stag) {
        if (stag == lastStag && lastSlot != 0) {
            SoftRegion r = table.entryAt(lastSlot);
            if (r != null && r.stag() == stag) {
                return r;
            }
        }
        SoftRegion r = table.lookup(stag);
        if (r != null && r.stag() == stag) {
            lastStag = stag;
            lastSlot = r.slot();
        }
        return r;
    }
}
