package io.jrnic.verbs;

/**
 * A scatter/gather element: {@code length} bytes at {@code offset} of a registered region. Immutable;
 * the range is checked against the region when created. Work requests copy its three fields, so
 * one Sge can be added to many work requests.
 */
public record Sge(MemoryRegion region, int offset, int length) {

    /** @throws IndexOutOfBoundsException when {@code [offset, offset+length)} is outside the region */
    public Sge {
        region.checkRange(offset, length);
    }

    public static Sge of(MemoryRegion region, int offset, int length) {
        return new Sge(region, offset, length);
    }
}
