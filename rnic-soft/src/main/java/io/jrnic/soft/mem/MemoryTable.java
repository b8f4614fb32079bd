package io.jrnic.soft.mem;

import io.jrnic.ddp.TaggedBufferLookup;
import io.netty.buffer.ByteBuf;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The device's STag table (RFC 5040 section 2, reference section 5): STag = 24-bit index + 8-bit key.
 *
 * <p>STags are unpredictable (RFC 5042 section 5.1): an entry lives in a dense slot, and its wire index is a
 * secret per-device permutation of the slot ({@link StagIndexPermutation}), so the indices of a device are
 * scattered over the 24-bit space; the key is drawn per registration from a {@link SecureRandom} unless the
 * consumer chose one. A peer that knows some STags learns nothing about the others: a guess names a live
 * entry of the table with probability (live entries) / 2^32, and each wrong guess costs it its stream (the
 * Terminate of RFC 5040 section 6). A re-registered slot gets a fresh random key, never the one it had
 * just before, so the STag of the previous registration misses.
 *
 * <p>Lookups are O(1) and lock-free (event loops); allocation and release are synchronized (application
 * threads). Index 0 never names memory, so STags 0..0xFF (and the STag 1 of siw's zero-length RTR Write) are
 * always invalid.
 */
public final class MemoryTable implements TaggedBufferLookup {
    /** Looked-up entry whose key did not match: answers invalid to every check. */
    private static final SoftRegion KEY_MISMATCH = new SoftRegion(null, 0, 0, SoftRegion.Kind.REGION, -1, 0);
    /** The consumer did not choose the key: the table draws it. */
    public static final int RANDOM_KEY = -1;

    private final int capacity;
    private final AtomicReferenceArray<SoftRegion> entries;
    /** The key each slot had last: a random key differs from it, so the slot's previous STag misses. */
    private final byte[] lastKeys;
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final SecureRandom random;
    private final StagIndexPermutation permutation;
    /** The slot whose index would be 0: never handed out. */
    private final int reservedSlot;
    private int nextSlot = 1;
    private int live;

    public MemoryTable(int capacity) {
        this(capacity, new SecureRandom());
    }

    /** A table drawing its permutation and keys from {@code random} (tests pass a seeded one). */
    public MemoryTable(int capacity, SecureRandom random) {
        if (capacity < 1 || capacity > 0xFF_FFFE) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        this.capacity = capacity;
        this.random = random;
        this.permutation = new StagIndexPermutation(random);
        this.reservedSlot = permutation.slot(0);
        entries = new AtomicReferenceArray<>(capacity + 2); // slots 1..capacity+1, one of them maybe reserved
        lastKeys = new byte[capacity + 2];
    }

    /** Registers {@code memory[0, length)} with TOs from {@code base} (0 for zero-based); {@code key} may be {@link #RANDOM_KEY}. */
    public SoftRegion register(ByteBuf memory, long base, int access, long pdId, int key) {
        SoftRegion r = allocate(SoftRegion.Kind.REGION, pdId, key);
        r.map(memory, 0, memory.capacity(), base, access, r.stag() & 0xFF, null);
        return r;
    }

    /**
     * An entry with an STag but no memory, invalid until mapped (fast registration, windows); {@code key} is
     * the consumer's 8-bit key or {@link #RANDOM_KEY} (any negative value).
     */
    public synchronized SoftRegion allocate(SoftRegion.Kind kind, long pdId, int key) {
        if (live >= capacity) {
            throw new IllegalStateException("memory table full (" + capacity + " entries)");
        }
        int slot;
        if (!freeSlots.isEmpty()) {
            slot = freeSlots.poll();
        } else {
            if (nextSlot == reservedSlot) {
                nextSlot++;
            }
            slot = nextSlot++;
        }
        int k = key < 0 ? (lastKeys[slot] + 1 + random.nextInt(255)) & 0xFF : key & 0xFF;
        lastKeys[slot] = (byte) k;
        int index = permutation.index(slot);
        SoftRegion r = new SoftRegion(this, slot, index, kind, pdId, (index << 8) | k);
        entries.set(slot, r);
        live++;
        return r;
    }

    synchronized void free(SoftRegion r) {
        if (entries.compareAndSet(r.slot(), r, null)) {
            freeSlots.add(r.slot());
            live--;
        }
    }

    /**
     * The entry the STag names: null when its index names no slot or a free one; an always-invalid entry
     * when the key does not match (both are "invalid STag" to DDP and RDMAP).
     */
    @Override
    public SoftRegion lookup(int stag) {
        int index = stag >>> 8;
        if (index == 0) {
            return null;
        }
        int slot = permutation.slot(index);
        if (slot == 0 || slot >= entries.length()) {
            return null;
        }
        SoftRegion r = entries.get(slot);
        if (r == null) {
            return null;
        }
        return r.stag() == stag ? r : KEY_MISMATCH;
    }

    /** The entry in {@code slot} now, or null (lock-free, as {@link #lookup}). */
    SoftRegion entryAt(int slot) {
        return slot > 0 && slot < entries.length() ? entries.get(slot) : null;
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
