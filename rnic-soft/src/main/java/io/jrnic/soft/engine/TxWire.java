package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * Where the {@link Transmitter}'s octets go, in stream order (RFC 5044 section 4: FPDUs back to back on one TCP
 * stream): reused batch buffers written to the channel; zero-copy payload slices of registered memory between small
 * head/tail buffers, whose work requests complete by a {@link WireMark} once their bytes left the outbound buffer;
 * and, for a posting thread transmitting in place, the socket itself (one gathering write per batch of its heads and
 * tails and the payloads where they lie, {@link InPlaceGather}), with a hand-over of what it did not take that the
 * event loop writes before anything else; the backpressure stall and its timeout are the {@link TransmitStall}'s.
 * All under the QP's lock.
 */
final class TxWire {
    static final int BATCH_BYTES = 64 * 1024;
    /** Initial size of a buffer holding only FPDU heads and tails around zero-copy payloads. */
    static final int GLUE_BYTES = 256;
    /**
     * Reused buffers per QP ({@link OutboundBuffers}): about the channel's high water mark (1 MiB) in batches (a fixed
     * ring: past it, one-off buffers); FPDU heads and tails around zero-copy payloads, a ring that grows while all its
     * buffers are in flight, to the high water mark in FPDUs of {@link FpduFraming#ZERO_COPY_MIN} and more (about 120
     * at MTU 9000, one per FPDU of 8,948 octets).
     */
    static final int BATCH_SLOTS = 12;
    static final int GLUE_SLOTS = 32;
    static final int MAX_GLUE_SLOTS = 512;
    /** Payload views per QP: first ring size, and the most kept (the high water mark in 4 KiB segments, and more). */
    static final int SLICE_SLOTS = 16;
    static final int MAX_SLICE_SLOTS = 1024;

    private final QpEngine qp;
    private final Channel ch;
    /** Writes need no promise: failures surface as the stream's close (channelInactive). */
    private final ChannelPromise quiet;
    /** Batch buffers (copy path) and small head/tail buffers (zero-copy path), reused. */
    private final OutboundBuffers batches;
    private final OutboundBuffers glue;
    private ByteBuf batch;
    private boolean unflushed;
    /** Zero-copy payload views, reused once the channel released them (see {@link PayloadSlice}). */
    private PayloadSlice[] slices = new PayloadSlice[SLICE_SLOTS];
    private int sliceCount;
    private int nextSlice;
    /** Zero-copy WRs finished since the last flush: they complete together, by one mark. */
    private SqEntry lastFinishedOnWire;
    /** Zero-copy WRs whose last slice is in the outbound buffer, oldest first (marks are released in order). */
    private final ArrayDeque<SqEntry> onWire = new ArrayDeque<>();
    /** Marks released by the channel, ready for reuse (see {@link WireMark}). */
    private final ArrayDeque<WireMark> freeMarks = new ArrayDeque<>();
    /** A direct NIO view of the memory last sent zero-copy, for the CRC (reused across FPDUs). */
    private ByteBuf viewOf;
    private ByteBuffer view;
    /** Backpressure: the stall and its timeout. */
    private final TransmitStall stall;
    /** The socket, when posting threads may write into it (epoll, nothing but the Receiver in the pipeline). */
    private FileDescriptor inPlaceFd;
    /** A posting thread is transmitting: batches go to the socket, never to the channel. */
    private boolean inPlace;
    /** Octets an in-place write left over: the event loop writes them before anything else. */
    private ByteBuf handover;
    /** In place: payload runs of registered memory the batch's next write gathers (see {@link InPlaceGather}). */
    private final InPlaceGather gather = new InPlaceGather();
    private final Runnable handoverTask = this::lockedFlush;
    private final Runnable flushTask = this::flush;

    TxWire(QpEngine qp, Channel ch, int mulpdu, long stallTimeoutMillis) {
        this.qp = qp;
        this.ch = ch;
        this.stall = new TransmitStall(qp, ch, stallTimeoutMillis);
        this.quiet = new VoidChannelPromise(ch, false);
        this.batches = new OutboundBuffers(ch.alloc(), BATCH_SLOTS, BATCH_BYTES + mulpdu + 64);
        this.glue = new OutboundBuffers(ch.alloc(), GLUE_SLOTS, MAX_GLUE_SLOTS, GLUE_BYTES);
    }

    // ---------------------------------------------------------------- buffers

    /** The open batch, else a new one (it grows as needed). */
    ByteBuf out() {
        return out(batches);
    }

    /** The open batch, else a small one for FPDU heads and tails around a zero-copy payload. */
    ByteBuf outGlue() {
        return out(glue);
    }

    private ByteBuf out(OutboundBuffers from) {
        unflushed = true;
        if (batch == null) {
            batch = from.take();
        }
        return batch;
    }

    /**
     * The batch holds {@link #BATCH_BYTES} and is written, unless what is left of the current message
     * ({@code tail} payload octets, 0 at a message boundary) still fits in its buffer: a message's short last FPDU
     * (on loopback, MSS 32,768: a 64 KiB WRITE is two FPDUs of 32 KiB that fill the batch and one of 40 payload
     * octets) joins the write before it rather than going out alone as one more TCP segment, with a whole
     * segment's cost in both kernels.
     */
    boolean batchFull(long tail) {
        if (batch == null || batch.readableBytes() + gather.payloadBytes() < BATCH_BYTES) {
            return false;
        }
        return tail == 0 || tail + TAIL_FRAMING + (tail >> 7) > batch.writableBytes();
    }

    /** Octets of framing the tail's FPDU adds at most (headers, pad, CRC), besides markers (4 per 512). */
    static final int TAIL_FRAMING = 64;

    /** Payloads may go zero-copy (not when a posting thread writes into the socket: it copies). */
    boolean zeroCopyAllowed() {
        return !inPlace;
    }

    /**
     * In place: a payload may be written from the registered memory by the batch's gathering write (room for one
     * more run in it), rather than copied into the batch.
     */
    boolean gatherAllowed() {
        return inPlace && Diagnostics.GATHER_IN_PLACE && gather.room();
    }

    /** In place: {@code mem[index, index + len)} follows what the batch holds so far, written from where it lies. */
    void gather(ByteBuf mem, int index, int len) {
        gather.add(out(), mem, index, len);
    }

    /** Writes the batch so far, then a view of {@code mem[index, index + len)} (a zero-copy payload). */
    void writeSlice(ByteBuf mem, int index, int len) {
        writeBatch();
        ch.write(slice().wrap(mem, index, len), quiet);
    }

    /**
     * A free payload view: the views made so far are scanned from the oldest written (the channel releases its
     * writes in order, so that one is free unless every view is in flight); when none is free another is made, up
     * to {@link #MAX_SLICE_SLOTS} (the ring grows), past that a one-off.
     */
    private PayloadSlice slice() {
        PayloadSlice[] r = slices;
        for (int n = 0; n < sliceCount; n++) {
            int k = nextSlice;
            nextSlice = k + 1 == sliceCount ? 0 : k + 1;
            if (r[k].free()) {
                return r[k];
            }
        }
        if (sliceCount == r.length) {
            if (r.length == MAX_SLICE_SLOTS) {
                return new PayloadSlice();
            }
            slices = r = java.util.Arrays.copyOf(r, r.length * 2);
        }
        return r[sliceCount++] = new PayloadSlice();
    }


    /** {@code mem[index, index + len)} as the reused NIO view (no allocation while the memory is the same). */
    ByteBuffer view(ByteBuf mem, int index, int len) {
        if (mem != viewOf) {
            view = mem.nioBuffer(0, mem.capacity());
            viewOf = mem;
        }
        view.clear().limit(index + len).position(index);
        return view;
    }

    // ---------------------------------------------------------------- writes and completions

    /** Writes what is pending: the hand-over first, then the batch. */
    void writeBatch() {
        if (handover != null) {
            ByteBuf h = handover;
            handover = null;
            ch.write(h, quiet);
            unflushed = true;
        }
        if (batch != null) {
            ByteBuf b = batch;
            batch = null;
            ch.write(b, quiet);
            unflushed = true;
        }
    }

    /** Everything encoded so far goes out: into the socket in place, else to the channel, flushed. */
    void flush() {
        if (inPlace) {
            writeInPlace();
            return;
        }
        if (lastFinishedOnWire == null && batch != null) {
            // the common case: the batch is the last write before the flush, one pass through the pipeline for both
            if (handover != null) {
                ByteBuf h = handover;
                handover = null;
                ch.write(h, quiet);
            }
            ByteBuf b = batch;
            batch = null;
            unflushed = false;
            ch.writeAndFlush(b, quiet);
            return;
        }
        writeBatch();
        if (lastFinishedOnWire != null) {
            // the WRs finished zero-copy are done once everything written so far has left the outbound buffer
            lastFinishedOnWire.lastOnWire = true;
            lastFinishedOnWire = null;
            WireMark m = freeMarks.poll();
            unflushed = false;
            ch.writeAndFlush(m == null ? new WireMark(this, ch) : m.arm(), quiet);
            return;
        }
        if (unflushed) {
            unflushed = false;
            ch.flush();
        }
    }

    /** {@code e} finished with payload sent zero-copy: it completes by the mark written at the next flush. */
    void finishedZeroCopy(SqEntry e) {
        e.lastOnWire = false;
        onWire.add(e);
        lastFinishedOnWire = e;
    }

    /** Zero-copy WRs whose bytes are still in the outbound buffer. */
    int onWire() {
        return onWire.size();
    }

    /** The channel released {@code m}: the WRs up to its flush are done if their bytes left ({@code sent}). */
    void markReleased(WireMark m, boolean sent) {
        qp.lock.lock();
        try {
            freeMarks.add(m);
            SqEntry e;
            while ((e = onWire.poll()) != null) {
                if (sent) {
                    e.done = true;
                }
                if (e.lastOnWire) {
                    break;
                }
            }
            // a failed write leaves the WR to the flush that follows the stream's close
            qp.teardown.wireDrained(onWire.isEmpty());
        } finally {
            qp.lock.unlock();
        }
    }

    // ---------------------------------------------------------------- transmit in place

    /** Lets posting threads transmit in place when the channel allows it; called once the Receiver is installed. */
    void enableInPlace(ChannelHandler receiver) {
        ChannelPipeline pl = ch.pipeline();
        if (Diagnostics.TRANSMIT_IN_PLACE && ch instanceof AbstractEpollStreamChannel e && pl.first() == receiver
                && pl.last() == receiver) {
            inPlaceFd = e.fd();
        }
    }

    /** No batch, hand-over or unflushed write, and no zero-copy WR waiting for its mark to be written. */
    boolean nothingPending() {
        return batch == null && handover == null && !unflushed && lastFinishedOnWire == null;
    }

    boolean inPlaceCapable() {
        return inPlaceFd != null;
    }

    /**
     * Whether a posting thread may start writing into the socket: nothing of this stream is waiting anywhere (no
     * batch, no hand-over, no zero-copy mark, no stall, an empty outbound buffer), so its bytes come next.
     */
    boolean idle() {
        if (!nothingPending() || !onWire.isEmpty() || stall.active() || !ch.isActive()) {
            return false;
        }
        ChannelOutboundBuffer ob = ch.unsafe().outboundBuffer();
        return ob != null && ob.totalPendingWriteBytes() == 0; // else the loop's bytes are still on their way
    }

    void inPlace(boolean on) {
        inPlace = on;
        if (!on && !gather.isEmpty() && batch != null) {
            // the poster let go before writing what it gathered (an exception): the loop writes a copy of it
            ByteBuf all = gather.materialize(batch, ch.alloc());
            batch.release();
            batch = all;
        }
    }

    boolean handoverPending() {
        return handover != null;
    }

    /**
     * In place: the batch goes into the socket; what it does not take becomes the hand-over, written by the loop.
     * True when the socket took it whole (the poster may go on with the next batch).
     */
    boolean writeInPlace() {
        ByteBuf b = batch;
        if (b == null) {
            return true;
        }
        batch = null;
        unflushed = false;
        qp.counters.inc(Counter.TX_IN_PLACE);
        if (!gather.isEmpty()) {
            qp.counters.add(Counter.TX_IN_PLACE_GATHERED_BYTES, gather.payloadBytes());
            ByteBuf rest = gather.write(inPlaceFd, b, ch.alloc());
            b.release();
            return rest == null || handOver(rest);
        }
        int n;
        try {
            n = b.hasMemoryAddress() ? inPlaceFd.writeAddress(b.memoryAddress(), b.readerIndex(), b.writerIndex())
                    : inPlaceFd.write(b.internalNioBuffer(b.readerIndex(), b.readableBytes()), 0, b.readableBytes());
        } catch (IOException | RuntimeException ex) {
            n = 0; // the loop's write of the hand-over meets the same error and the stream is lost (never the poster's)
        }
        b.skipBytes(n);
        if (b.isReadable()) {
            return handOver(b);
        }
        b.release();
        return true;
    }

    /** What an in-place write left over: the loop writes it before anything else (false: the poster stops). */
    private boolean handOver(ByteBuf rest) {
        qp.counters.inc(Counter.TX_IN_PLACE_HANDOVERS);
        handover = rest;
        ch.eventLoop().execute(handoverTask);
        return false;
    }

    private void lockedFlush() {
        qp.locked(flushTask);
    }

    // ---------------------------------------------------------------- backpressure

    /** After a pump: the channel stopped taking data while the QP may send: a stall begins (timer armed). */
    void checkStall(boolean txOpen) {
        stall.check(txOpen);
    }

    /** The channel turned writable: ends a backpressure stall begun by {@link #checkStall}. */
    void writable() {
        stall.writable();
    }

    /** The stream closed: drops the reused buffers (those still in flight are freed by the channel). */
    void release() {
        stall.cancel();
        if (handover != null) {
            handover.release();
            handover = null;
        }
        if (batch != null) {
            batch.release();
            batch = null;
        }
        batches.release();
        glue.release();
        gather.release();
        java.util.Arrays.fill(slices, null); // views still in flight are released by the channel
        sliceCount = 0;
        nextSlice = 0;
    }
}
