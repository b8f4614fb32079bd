package io.jrnic.soft.mem;

import io.jrnic.ddp.TaggedRegion;
import io.netty.buffer.ByteBuf;

/**
 * One entry of the {@link MemoryTable} (the RNIC's translation and protection table, RFC 5040
 * section 2): a memory region, a fast-registration region or a memory window. The fields a peer's
 * access reads are volatile: registration, invalidation and deregistration happen on application
 * threads while the event loop checks accesses.
 */
public final class SoftRegion implements TaggedRegion {
    /** What the entry is. */
    public enum Kind { REGION, FAST_REG, WINDOW }

    private final MemoryTable table;
    private final int index;
    /** Where the memory table keeps it (its index is a secret permutation of this). */
    private final int slot;
    private final Kind kind;
    private final long pdId;
    private volatile int stag;
    private volatile boolean valid;
    private volatile boolean closed;
    private volatile ByteBuf memory;
    private volatile int memoryOffset;
    private volatile long base;
    private volatile long length;
    private volatile int access;
    private volatile SoftRegion parent;
    /** The provider object wrapping this entry (e.g. the verbs MrSpi), or null. */
    private volatile Object attachment;

    /** The provider object this region belongs to (the verbs adapter's memory region), set once by it. */
    public void attach(Object owner) {
        attachment = owner;
    }

    public Object attachment() {
        return attachment;
    }

    SoftRegion(MemoryTable table, int slot, int index, Kind kind, long pdId, int stag) {
        this.table = table;
        this.index = index;
        this.slot = slot;
        this.kind = kind;
        this.pdId = pdId;
        this.stag = stag;
    }

    /** A region outside every table (inline payload copies), valid, never looked up by STag. */
    public static SoftRegion scratch(ByteBuf memory) {
        SoftRegion r = new SoftRegion(null, 0, 0, Kind.REGION, -1, 0);
        r.map(memory, 0, memory.capacity(), 0, AccessFlags.LOCAL_WRITE, 0, null);
        return r;
    }

    /** Maps memory: {@code memory[memoryOffset, memoryOffset + length)} answers TOs from {@code base}. */
    public synchronized void map(ByteBuf memory, int memoryOffset, long length, long base, int access, int key,
            SoftRegion parent) {
        if (Long.compareUnsigned(length, -1L - base) > 0) {
            throw new IllegalArgumentException("base TO 0x" + Long.toHexString(base) + " + length wraps");
        }
        this.memory = memory;
        this.memoryOffset = memoryOffset;
        this.length = length;
        this.base = base;
        this.access = access;
        this.parent = parent;
        this.stag = (stag & 0xFFFF_FF00) | (key & 0xFF);
        this.valid = !closed;
    }

    /** Local or remote invalidation (RFC 5040 section 5.1, Send with Invalidate): the STag stops working. */
    public void invalidate() {
        valid = false;
    }

    /** Deregistration: invalid forever, index returned to the table. */
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            valid = false;
        }
        if (table != null) {
            table.free(this);
        }
    }

    public int index() {
        return index;
    }

    int slot() {
        return slot;
    }

    public Kind kind() {
        return kind;
    }

    public long pdId() {
        return pdId;
    }

    public int stag() {
        return stag;
    }

    public boolean isClosed() {
        return closed;
    }

    /** The bytes (absolute indices only), null before a fast registration or bind. */
    public ByteBuf memory() {
        return memory;
    }

    /** Index in {@link #memory()} of the byte at {@link #baseTaggedOffset()}. */
    public int memoryOffset() {
        return memoryOffset;
    }

    public int access() {
        return access;
    }

    /** The region a window is bound to, else null. */
    public SoftRegion parent() {
        return parent;
    }

    /** Valid, and (for a window) its region still valid too. */
    @Override
    public boolean valid() {
        SoftRegion p = parent;
        return valid && (p == null || p.valid());
    }

    @Override
    public boolean associatedWith(long streamId) {
        return pdId == streamId;
    }

    @Override
    public long baseTaggedOffset() {
        return base;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public boolean remoteWrite() {
        return AccessFlags.has(access, AccessFlags.REMOTE_WRITE);
    }

    @Override
    public boolean remoteRead() {
        return AccessFlags.has(access, AccessFlags.REMOTE_READ);
    }

    public boolean remoteAtomic() {
        return AccessFlags.has(access, AccessFlags.REMOTE_ATOMIC);
    }

    public boolean localWrite() {
        return AccessFlags.has(access, AccessFlags.LOCAL_WRITE);
    }

    @Override
    public String toString() {
        return String.format("SoftRegion[%s stag=0x%08x pd=%d base=0x%x len=%d access=0x%x%s]", kind, stag, pdId,
                base, length, access, valid() ? "" : " invalid");
    }
}
