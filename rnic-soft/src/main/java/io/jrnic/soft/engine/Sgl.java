package io.jrnic.soft.engine;

import io.jrnic.soft.mem.SoftRegion;
import io.netty.buffer.ByteBuf;

/**
 * A scatter/gather list resolved to table entries: element i is {@code length[i]} bytes at byte
 * {@code offset[i]} of {@code region[i]}. Gathers into and scatters from ByteBufs by message offset.
 * Reusable (arrays grow, never shrink).
 */
public final class Sgl {
    private SoftRegion[] region = new SoftRegion[1];
    private int[] offset = new int[1];
    private int[] length = new int[1];
    private int count;
    private long total;

    public Sgl clear() {
        java.util.Arrays.fill(region, 0, count, null);
        count = 0;
        total = 0;
        return this;
    }

    public Sgl add(SoftRegion r, int off, int len) {
        if (count == region.length) {
            region = java.util.Arrays.copyOf(region, count * 2);
            offset = java.util.Arrays.copyOf(offset, count * 2);
            length = java.util.Arrays.copyOf(length, count * 2);
        }
        region[count] = r;
        offset[count] = off;
        length[count] = len;
        count++;
        total += len;
        return this;
    }

    public int count() {
        return count;
    }

    public long total() {
        return total;
    }

    public SoftRegion region(int i) {
        return region[i];
    }

    public int offset(int i) {
        return offset[i];
    }

    /** True if every element's region is still valid (not invalidated or deregistered). */
    public boolean valid() {
        for (int i = 0; i < count; i++) {
            if (!region[i].valid()) {
                return false;
            }
        }
        return true;
    }

    /** Appends {@code len} bytes from message offset {@code from} to {@code out}. */
    public void gather(long from, int len, ByteBuf out) {
        int i = 0;
        long skip = from;
        while (i < count && skip >= length[i]) {
            skip -= length[i++];
        }
        while (len > 0) {
            int n = (int) Math.min(len, length[i] - skip);
            SoftRegion r = region[i];
            out.writeBytes(r.memory(), r.memoryOffset() + offset[i] + (int) skip, n);
            len -= n;
            skip = 0;
            i++;
        }
    }

    /** Copies {@code len} bytes at {@code srcIndex} of {@code src} to message offset {@code to}. */
    public void scatter(long to, ByteBuf src, int srcIndex, int len) {
        int i = 0;
        long skip = to;
        while (i < count && skip >= length[i]) {
            skip -= length[i++];
        }
        while (len > 0) {
            int n = (int) Math.min(len, length[i] - skip);
            SoftRegion r = region[i];
            r.memory().setBytes(r.memoryOffset() + offset[i] + (int) skip, src, srcIndex, n);
            srcIndex += n;
            len -= n;
            skip = 0;
            i++;
        }
    }
}
