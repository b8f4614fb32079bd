package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.IovArray;
import java.io.IOException;

/**
 * A posting thread's gathering write (zero-copy transmit in place, spec-notes/engine.md "What a posting thread writes
 * in place"): the batch holds the FPDUs' heads and tails (ULPDU_Length, headers, PAD, CRC; and payloads too small to
 * gather), and payload runs of registered direct memory are written from where they lie, all in stream order by one
 * {@code writev} (RFC 5044 section 4: FPDUs back to back). What the socket does not take is copied into the hand-over
 * before the poster lets the QP go, so a work request is done once its batch was written, as on the copy path, and the
 * memory is the consumer's again when its completion can be seen. Owned by {@link TxWire} (QP lock); nothing allocated
 * per write once warm (the iovec array is made at the first gathered payload and kept while the stream is bound).
 */
final class InPlaceGather {
    /**
     * Payload runs per write: a batch closes at 64 KiB (16 runs of {@link FpduFraming#ZERO_COPY_MIN}), or at the end
     * of a message whose rest fits (more); past this many runs the batch's payloads are copied ({@link #room}).
     */
    static final int MAX_RUNS = 32;

    /** The write's pieces in stream order: batch ranges (glue) and payload runs. */
    private final ByteBuf[] bufs = new ByteBuf[2 * MAX_RUNS + 1];
    private final int[] index = new int[bufs.length];
    private final int[] length = new int[bufs.length];
    private int pieces;
    private int runs;
    /** The batch's first octet not yet listed as a piece. */
    private int glueFrom;
    private long payloadBytes;
    private IovArray iov;

    boolean isEmpty() {
        return runs == 0;
    }

    /** Room for one more payload run. */
    boolean room() {
        return runs < MAX_RUNS;
    }

    /** Payload octets gathered so far (the batch holds the rest of the write). */
    long payloadBytes() {
        return payloadBytes;
    }

    /** After what {@code batch} holds so far: {@code len} octets of {@code mem} at {@code at}, written from there. */
    void add(ByteBuf batch, ByteBuf mem, int at, int len) {
        glue(batch);
        put(mem, at, len);
        runs++;
        payloadBytes += len;
    }

    private void glue(ByteBuf batch) {
        if (pieces == 0) {
            glueFrom = batch.readerIndex();
        }
        int to = batch.writerIndex();
        if (to > glueFrom) {
            put(batch, glueFrom, to - glueFrom);
            glueFrom = to;
        }
    }

    private void put(ByteBuf b, int at, int len) {
        bufs[pieces] = b;
        index[pieces] = at;
        length[pieces] = len;
        pieces++;
    }

    /**
     * Writes the batch with the gathered runs into {@code fd} (one {@code writev}); returns what the socket did not
     * take, copied into a buffer from {@code alloc} (null when it took everything), and clears the list. An I/O error
     * counts as nothing written: the event loop's write of the rest meets it and the stream is lost.
     */
    ByteBuf write(FileDescriptor fd, ByteBuf batch, ByteBufAllocator alloc) {
        glue(batch);
        IovArray v = iov;
        if (v == null) {
            v = iov = new IovArray(Unpooled.directBuffer(bufs.length * IovArray.IOV_SIZE));
        }
        v.clear();
        boolean listed = true;
        for (int i = 0; i < pieces && listed; i++) {
            listed = v.add(bufs[i], index[i], length[i]); // sized for them all; if not, the loop writes a copy
        }
        long total = totalBytes();
        long n = 0;
        if (listed) {
            try {
                n = fd.writevAddresses(v.memoryAddress(0), v.count());
            } catch (IOException | RuntimeException e) {
                n = 0;
            }
        }
        ByteBuf rest = n < total ? rest(n, total, alloc) : null;
        clear();
        return rest;
    }

    /** Everything listed, in order, as one buffer (the poster lets go before writing it: the loop writes it). */
    ByteBuf materialize(ByteBuf batch, ByteBufAllocator alloc) {
        glue(batch);
        ByteBuf all = rest(0, totalBytes(), alloc);
        clear();
        return all;
    }

    private long totalBytes() {
        long t = 0;
        for (int i = 0; i < pieces; i++) {
            t += length[i];
        }
        return t;
    }

    /** The listed octets from {@code skip} on, copied. */
    private ByteBuf rest(long skip, long total, ByteBufAllocator alloc) {
        ByteBuf out = alloc.ioBuffer((int) (total - skip));
        for (int i = 0; i < pieces; i++) {
            int len = length[i];
            if (skip >= len) {
                skip -= len;
                continue;
            }
            out.writeBytes(bufs[i], index[i] + (int) skip, len - (int) skip);
            skip = 0;
        }
        return out;
    }

    private void clear() {
        java.util.Arrays.fill(bufs, 0, pieces, null);
        pieces = 0;
        runs = 0;
        glueFrom = 0;
        payloadBytes = 0;
    }

    /** The stream closed: drops what is listed and the iovec array. */
    void release() {
        clear();
        if (iov != null) {
            iov.release();
            iov = null;
        }
    }
}
