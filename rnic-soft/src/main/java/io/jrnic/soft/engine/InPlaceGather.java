package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.IovArray;
import java.io.IOException;

/**
 * Zero-copy transmit in place: a posting thread that writes into the socket itself sends a payload segment of
 * registered (direct) memory as it lies, in one gathering write (writev) of the batch's ranges (ULPDU_Length and
 * headers, PAD and CRC, copied small FPDUs) and the payload ranges between them, in stream order (RFC 5044 section 4:
 * FPDUs back to back). What the socket does not take is copied into the hand-over before the write returns, so no
 * registered memory is referenced once the poster leaves: its work requests complete as copied ones do. Owned by
 * {@link TxWire}, under the QP's token.
 */
final class InPlaceGather {
    /** Ranges per write, well under IOV_MAX (1024): 4 batches of 64 KiB in segments of at least 4 KiB need ~70. */
    static final int MAX_RANGES = 256;

    private final ByteBuf[] bufs = new ByteBuf[MAX_RANGES];
    private final int[] index = new int[MAX_RANGES];
    private final int[] length = new int[MAX_RANGES];
    private int count;
    /** Payload octets gathered (not in the batch). */
    private long payloadBytes;
    /** Where the batch's octets not yet in a range start. */
    private int batchMark;
    /** The writev vector (its own direct memory: made at the first gathered write, released with the wire). */
    private IovArray iov;

    /** Whether another payload segment (and the batch range before it) fits, with the batch's tail. */
    boolean hasRoom() {
        return count + 3 <= MAX_RANGES;
    }

    boolean active() {
        return count > 0;
    }

    long payloadBytes() {
        return payloadBytes;
    }

    /** The batch's octets so far, then {@code len} octets of {@code mem} at {@code at}, as the stream's next ranges. */
    void payload(ByteBuf batch, ByteBuf mem, int at, int len) {
        if (count == 0) {
            batchMark = batch.readerIndex();
        }
        if (batch.writerIndex() > batchMark) {
            add(batch, batchMark, batch.writerIndex() - batchMark);
            batchMark = batch.writerIndex();
        }
        add(mem, at, len);
        payloadBytes += len;
    }

    private void add(ByteBuf b, int at, int len) {
        bufs[count] = b;
        index[count] = at;
        length[count] = len;
        count++;
    }

    /**
     * Writes the ranges and the rest of {@code batch} into {@code fd}; returns what the socket did not take, copied
     * (the hand-over, for the event loop), or null when it took everything. The ranges are cleared either way.
     */
    ByteBuf write(FileDescriptor fd, ByteBuf batch, ByteBufAllocator alloc) {
        if (batch.writerIndex() > batchMark) {
            add(batch, batchMark, batch.writerIndex() - batchMark);
        }
        if (iov == null) {
            iov = new IovArray();
        }
        iov.clear();
        long total = 0;
        for (int i = 0; i < count; i++) {
            iov.add(bufs[i], index[i], length[i]);
            total += length[i];
        }
        long n;
        try {
            n = fd.writevAddresses(iov.memoryAddress(0), iov.count());
        } catch (IOException | RuntimeException e) {
            n = 0; // the loop's write of the hand-over meets the same error: the stream is lost (never the poster's)
        }
        ByteBuf rest = n < total ? rest(alloc, Math.max(0, n), total) : null;
        clear();
        return rest;
    }

    /** The octets after the first {@code taken} of the ranges, copied into one buffer. */
    private ByteBuf rest(ByteBufAllocator alloc, long taken, long total) {
        ByteBuf rest = alloc.ioBuffer((int) (total - taken));
        long skip = taken;
        for (int i = 0; i < count; i++) {
            int len = length[i];
            if (skip >= len) {
                skip -= len;
                continue;
            }
            rest.writeBytes(bufs[i], index[i] + (int) skip, len - (int) skip);
            skip = 0;
        }
        return rest;
    }

    /** Forgets the ranges (nothing is referenced any more). */
    void clear() {
        java.util.Arrays.fill(bufs, 0, count, null);
        count = 0;
        payloadBytes = 0;
    }

    /** The wire is released: the vector's memory goes. */
    void release() {
        clear();
        if (iov != null) {
            iov.release();
            iov = null;
        }
    }
}
