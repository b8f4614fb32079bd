package io.jrnic.soft.engine;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A stream's receive-buffer allocator, one per channel, set when the channel is created (Netty keeps the first
 * handle it gets, so an allocator set later would never be used): reads of 512 B to 1 MiB, so that most FPDUs
 * (up to 64 KiB + 6) lie whole in one chunk and are decoded in place; and, once a QP is bound, the gate between
 * the event loop's reads and a polling thread's ({@link ReceiveInPlace}). The loop announces a read under the
 * QP's lock before it touches the socket and retracts it once the Receiver fed the bytes (or nothing was read); a
 * polling thread reads only under the lock and only while no read is announced, so the two never take bytes of
 * the stream out of order. The end of the stream (or a read error) closes the gate for good.
 *
 * <p>While a QP that receives in place is bound (the gate attached: the Receiver alone in the pipeline; it feeds
 * every read and releases it before the next), the loop reads into one reused buffer per event-loop thread
 * ({@link #LOOP_BUFFER}), as a polling thread does, instead of a fresh pooled buffer per read: the kernel copies
 * into memory that stays in the cache, with no allocation per read. When the Receiver places an FPDU's payload
 * directly ({@link DirectPlacement}), the read goes instead into a slice over the rest of that payload in its target
 * memory ({@link DirectPlacement#loopRead()}, asked under the QP's lock): Netty reads at most the slice's capacity;
 * and the read after it takes only that FPDU's pad and CRC and the next FPDU's head ({@link #HEAD_BUFFER}), so that
 * a stream of large FPDUs has each payload placed directly, at two reads per FPDU.
 */
public final class LoopReadGate implements RecvByteBufAllocator {
    /**
     * The event loop's read sizes (adaptive between these; the first reads, the MPA set-up frames, are small, and a
     * busy stream's reads grow within a few reads to the maximum). 1 MiB rather than 256 KiB: a loop that receives
     * a bulk stream alone (RDMA WRITE: nobody polls on the target) drains more per wake-up; measured +20-35% WRITE
     * 64 KiB bandwidth, READ and SEND unchanged. Once a QP that receives in place is bound, the loop reads into its
     * thread's reused buffer.
     */
    static final int RECV_MIN = 512;
    static final int RECV_INITIAL = 2048;
    static final int RECV_MAX = 1024 * 1024;
    /**
     * The event-loop thread's read buffer ({@link #RECV_MAX}), lent to one read at a time: one reference is
     * the thread's own, a read takes a second that the Receiver releases. A JDK direct buffer, so its memory goes
     * with the thread (its Cleaner).
     */
    private static final ThreadLocal<ByteBuf> LOOP_BUFFER =
            ThreadLocal.withInitial(() -> Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(RECV_MAX)));

    /**
     * The event-loop thread's buffer for a head read ({@link DirectPlacement#headReadLength()}, at most 37 octets): lent as
     * {@link #LOOP_BUFFER} is, read into its last octets only.
     */
    private static final int HEAD_READ_MAX = 64;
    private static final ThreadLocal<ByteBuf> HEAD_BUFFER =
            ThreadLocal.withInitial(() -> Unpooled.wrappedBuffer(ByteBuffer.allocateDirect(HEAD_READ_MAX)));

    private final AdaptiveRecvByteBufAllocator sizes =
            new AdaptiveRecvByteBufAllocator(RECV_MIN, RECV_INITIAL, RECV_MAX);
    /** The bound QP's lock; null while no QP receives in place. */
    private volatile ReentrantLock lock;
    /** The bound Receiver's direct placement, asked where a read goes; null: never. */
    private volatile DirectPlacement placement;
    private volatile boolean loopReading;
    private volatile boolean ended;

    /** The QP bound to the stream receives in place under {@code l} (null: nobody does). */
    void attach(ReentrantLock l) {
        attach(l, null);
    }

    /** As {@link #attach(ReentrantLock)}; the loop's reads go where {@code p} places a payload (null: never). */
    void attach(ReentrantLock l, DirectPlacement p) {
        this.placement = p;
        this.lock = l;
    }

    /** Whether a polling thread holding the QP's lock may read the socket now. */
    boolean quiet() {
        return !loopReading && !ended;
    }

    /** Whether the stream ended (or a read failed): only the loop reads it now. */
    boolean ended() {
        return ended;
    }

    /** The Receiver fed the bytes of the loop's read. */
    void fed() {
        loopReading = false;
    }

    /** The stream ended or failed under a polling thread's read: only the loop reads it from now on. */
    void end() {
        ended = true;
    }

    /**
     * Tries for a while before it parks: a polling thread holds the lock for microseconds, and handing the lock to
     * a parked loop would cost that thread a wake-up call on its way back to its consumer.
     */
    private static void acquire(ReentrantLock l) {
        for (int i = 0; i < SPINS; i++) {
            if (l.tryLock()) {
                return;
            }
            Thread.onSpinWait();
        }
        l.lock();
    }

    private static final int SPINS = 1000;

    @Override
    public Handle newHandle() {
        return new GateHandle((ExtendedHandle) sizes.newHandle());
    }

    private final class GateHandle extends DelegatingHandle implements ExtendedHandle {
        /** A read was announced and its outcome not yet seen (an exception skips lastBytesRead). */
        private boolean announced;

        GateHandle(ExtendedHandle delegate) {
            super(delegate);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            ReentrantLock l = lock;
            if (l != null) {
                acquire(l); // waits for a polling thread's read and feed to finish
                ByteBuf span = null;
                int head = 0;
                try {
                    DirectPlacement p = placement;
                    if (p != null) {
                        span = p.loopRead();
                        head = span == null ? p.headReadLength() : 0;
                    }
                    loopReading = true;
                } finally {
                    l.unlock();
                }
                announced = true;
                if (span != null) {
                    return span;
                }
                ByteBuf h = HEAD_BUFFER.get();
                if (head > 0 && head <= HEAD_READ_MAX && h.refCnt() == 1) {
                    int at = HEAD_READ_MAX - head; // Netty reads from the writer index to the capacity
                    return h.retain().setIndex(at, at);
                }
                ByteBuf b = LOOP_BUFFER.get();
                if (b.refCnt() == 1) { // else still held (never, with the Receiver alone): a pooled one
                    return b.retain().clear();
                }
            }
            return delegate().allocate(alloc);
        }

        @Override
        public void lastBytesRead(int bytes) {
            delegate().lastBytesRead(bytes);
            if (announced) {
                announced = false;
                if (bytes <= 0) {
                    ended |= bytes < 0; // the end of the stream
                    loopReading = false; // nothing to feed
                }
                // else the Receiver retracts the announcement once it fed the bytes
            }
        }

        @Override
        public void readComplete() {
            delegate().readComplete();
            if (announced) {
                announced = false; // the read threw: the loop closes the stream
                ended = true;
                loopReading = false;
            }
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return ((ExtendedHandle) delegate()).continueReading(maybeMoreDataSupplier);
        }
    }
}
