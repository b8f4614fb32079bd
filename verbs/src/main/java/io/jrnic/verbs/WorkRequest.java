package io.jrnic.verbs;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Common part of {@link SendWr} and {@link RecvWr}: the consumer's 64-bit id and a scatter/gather
 * list kept in parallel arrays, so a work request can be reused forever without garbage.
 *
 * <p><b>Ownership.</b> From a successful post until its completion is produced (or, for an
 * unsignaled send, until the provider retires it), the work request belongs to the provider,
 * which reads it in place instead of copying it. During that time every mutator and every
 * further post of the same object throws {@link WorkRequestInFlightException}.
 * {@link #isInFlight()} tells when it may be reused.
 */
public abstract sealed class WorkRequest permits SendWr, RecvWr {
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(WorkRequest.class, "owner", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long id;
    private MemoryRegion[] regions = new MemoryRegion[1];
    private int[] offsets = new int[1];
    private int[] lengths = new int[1];
    private int sgeCount;
    private volatile Object owner;
    Consumer<Completion> listener;

    WorkRequest() {
    }

    /** The consumer's id, returned in the completion. */
    public long id() {
        return id;
    }

    /** Number of SGEs. */
    public int sgeCount() {
        return sgeCount;
    }

    /** Region of SGE {@code i}. */
    public MemoryRegion sgeRegion(int i) {
        checkSge(i);
        return regions[i];
    }

    /** Byte offset of SGE {@code i} inside its region (0 = first registered byte). */
    public int sgeOffset(int i) {
        checkSge(i);
        return offsets[i];
    }

    /** Length of SGE {@code i}. */
    public int sgeLength(int i) {
        checkSge(i);
        return lengths[i];
    }

    /** Sum of SGE lengths (long: cannot overflow). */
    public long totalLength() {
        long t = 0;
        for (int i = 0; i < sgeCount; i++) {
            t += lengths[i];
        }
        return t;
    }

    /** True between a successful post and retirement. */
    public boolean isInFlight() {
        return owner != null;
    }

    private void checkSge(int i) {
        if (i < 0 || i >= sgeCount) {
            throw new IndexOutOfBoundsException("SGE " + i + " of " + sgeCount);
        }
    }

    final void checkMutable() {
        if (owner != null) {
            throw new WorkRequestInFlightException(this);
        }
    }

    final void doId(long id) {
        checkMutable();
        this.id = id;
    }

    final void doClearSges() {
        checkMutable();
        Arrays.fill(regions, 0, sgeCount, null);
        sgeCount = 0;
    }

    /** Appends one SGE. @throws IndexOutOfBoundsException when the range is outside the region */
    final void doAddSge(MemoryRegion mr, int offset, int length) {
        checkMutable();
        mr.checkRange(offset, length);
        if (sgeCount == regions.length) {
            int n = sgeCount * 2;
            regions = Arrays.copyOf(regions, n);
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
        }
        regions[sgeCount] = mr;
        offsets[sgeCount] = offset;
        lengths[sgeCount] = length;
        sgeCount++;
    }

    /** Marks in flight for {@code queue}; false if it already was. */
    final boolean acquire(Object queue) {
        return OWNER.compareAndSet(this, null, queue); // one CAS: posts of one WR from two threads, one wins
    }

    final void release() {
        owner = null;
    }

    final Object owner() {
        return owner;
    }
}
