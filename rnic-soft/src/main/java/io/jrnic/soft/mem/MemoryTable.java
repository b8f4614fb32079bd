package io.jrnic.soft.mem;

import io.jrnic.ddp.TaggedBufferLookup;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The device's STag table (RFC 5040 section 2, reference section 5): STag = 24-bit index chosen
 * here + 8-bit key chosen by the consumer. Lookups are lock-free (event loops); allocation and
 * release are synchronized (application threads). Index 0 is never handed out, so STag 0..0xFF
 * (and the STag 1 of siw's zero-length RTR Write) never names memory.
 */
public final class MemoryTable implements TaggedBufferLookup {
    /** Looked-up entry whose key did not match: answers invalid to every check. */
    private static final SoftRegion KEY_MISMATCH = new SoftRegion(null, 0, SoftRegion.Kind.REGION, -1, 0);

    private final AtomicReferenceArray<SoftRegion> entries;
    private final ArrayDeque<Integer> freeIndices = new ArrayDeque<>();
    private int nextIndex = 1;
    private int live;

    public MemoryTable(int capacity) {
        if (capacity < 1 || capacity > 0xFF_FFFF) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        entries = new AtomicReferenceArray<>(capacity + 1);
    }

    /** Registers {@code memory[0, length)} with TOs from {@code base} (0 for zero-based). */
    public SoftRegion register(ByteBuf memory, long base, int access, long pdId, int key) {
        SoftRegion r = allocate(SoftRegion.Kind.REGION, pdId, key);
        r.map(memory, 0, memory.capacity(), base, access, key, null);
        return r;
    }

    /** An entry with an STag but no memory, invalid until mapped (fast registration, windows). */
    public synchronized SoftRegion allocate(SoftRegion.Kind kind, long pdId, int key) {
        int index;
        if (!freeIndices.isEmpty()) {
            index = freeIndices.poll();
        } else if (nextIndex < entries.length()) {
            index = nextIndex++;
        } else {
            throw new IllegalStateException("memory table full (" + (entries.length() - 1) + " entries)");
        }
        SoftRegion r = new SoftRegion(this, index, kind, pdId, (index << 8) | (key & 0xFF));
        entries.set(index, r);
        live++;
        return r;
    }

    synchronized void free(SoftRegion r) {
        if (entries.compareAndSet(r.index(), r, null)) {
            freeIndices.add(r.index());
            live--;
        }
    }

    /**
     * The entry the STag names: null when the index is free or out of range; an always-invalid entry
     * when the key does not match (both are "invalid STag" to DDP and RDMAP).
     */
    @Override
    public SoftRegion lookup(int stag) {
        int index = stag >>> 8;
        if (index == 0 || index >= entries.length()) {
            return null;
        }
        SoftRegion r = entries.get(index);
        if (r == null) {
            return null;
        }
        return r.stag() == stag ? r : KEY_MISMATCH;
    }

    /** An entry that is never valid: stands for a local region that is gone (checks then fail). */
    public static SoftRegion invalidEntry() {
        return KEY_MISMATCH;
    }

    /** Entries registered and not closed. */
    public synchronized int size() {
        return live;
    }
}
