package io.jrnic.soft;

import static io.jrnic.soft.TaggedMessage.backLength;
import static io.jrnic.soft.TaggedMessage.fill;
import static io.jrnic.soft.TaggedMessage.filled;
import static io.jrnic.soft.TaggedMessage.getLong;
import static io.jrnic.soft.TaggedMessage.putLong;
import static io.jrnic.soft.TaggedMessage.sendLength;
import static io.jrnic.soft.TaggedMessage.writeLength;

import io.jrnic.verbs.Access;
import io.jrnic.verbs.Completion;
import io.jrnic.verbs.CompletionOpcode;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectionManager;
import io.jrnic.verbs.MemoryRegion;
import io.jrnic.verbs.ProtectionDomain;
import io.jrnic.verbs.QpInit;
import io.jrnic.verbs.QpStateException;
import io.jrnic.verbs.QueuePair;
import io.jrnic.verbs.RdmaDevice;
import io.jrnic.verbs.RecvWr;
import io.jrnic.verbs.ResourceClosedException;
import io.jrnic.verbs.SendWr;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection pair of {@link ConnectionIsolationStressTest}, with its identity {@link #id} (unique in the run) in
 * every message ({@link TaggedMessage}: the tag, lengths and pattern). Message {@code s} is an RDMA WRITE of 16 B..8 KiB into B's target region at slot {@code s % SLOTS}
 * followed by a SEND of 16..256 B, both starting with the tag ({@code id}, {@code s}) and filled with a pattern of
 * (id, s); B checks the SEND and the WRITE before it (RDMAP orders placement: the WRITE landed before the SEND
 * completes), reposts the receive, and answers the same way: a tagged WRITE of 16 B..8 KiB into A's region, then a
 * 16-byte tagged SEND (the ack), which A checks with the WRITE before it and which gives A its credit back. Both
 * directions carry bulk data, so both event loops write (and meet the reset under a write).
 * At most {@link #WINDOW} messages are unacknowledged, fewer than the slots, so the slot B checks holds that
 * message's WRITE. Each side has its own PD per connection (RFC 5042 5.4: a protection domain per stream), so a
 * WRITE of another connection cannot land in this one's memory without a protection error.
 */
final class IsolatedPair {
    static final int WINDOW = 8;
    static final int SLOTS = 16;
    static final int SLOT = 8192;
    static final int RECV = 256;
    static final int ACK = 16;

    /** One end: the QP's context, so a completion leads to its pair. */
    static final class End {
        final IsolatedPair pair;
        final boolean initiator;
        volatile ProtectionDomain pd;
        volatile QueuePair qp;

        End(IsolatedPair pair, boolean initiator) {
            this.pair = pair;
            this.initiator = initiator;
        }

        String describe() {
            QueuePair q = qp;
            return (initiator ? "A " : "B ") + (q == null ? "no QP" : q.state() + " " + q.stats().counters());
        }

        @Override
        public String toString() {
            return "pair " + pair.id + (initiator ? " A" : " B");
        }
    }

    final long id;
    final int slot;
    private final IsolationTally tally;
    final End a = new End(this, true);
    final End b = new End(this, false);
    /** Set before the test resets or closes the pair: its failures from then on are expected. */
    volatile boolean reset;
    /** A foreign or mangled message was seen: the pair's exchange stops there (not a hang). */
    volatile boolean faulted;
    /** When A last got an ack (or the pair started). */
    volatile long lastProgress = System.nanoTime();
    /** B's QP was made and accepted. */
    final CompletableFuture<Void> accepted = new CompletableFuture<>();

    // A's side, guarded by aLock (a lock the test can give up waiting for, unlike a monitor)
    private final ReentrantLock aLock = new ReentrantLock();
    volatile ConnectionManager cm;
    private MemoryRegion source;
    private final byte[] acksIn = new byte[WINDOW * ACK];
    private final byte[] backTarget = new byte[SLOTS * SLOT];
    private MemoryRegion acksInMr;
    private volatile io.jrnic.verbs.RemoteBuffer backBuffer;
    private volatile long nextSeq;
    private volatile long nextAck;
    private volatile boolean stopping;
    private volatile io.jrnic.verbs.RemoteBuffer targetBuffer;
    private ByteBuffer sourceMemory;

    // B's side, guarded by b
    private final byte[] target = new byte[SLOTS * SLOT];
    private final byte[] recv = new byte[WINDOW * RECV];
    private final byte[] acksOut = new byte[WINDOW * ACK];
    private final byte[] backSource = new byte[SLOTS * SLOT];
    private MemoryRegion recvMr;
    private MemoryRegion acksOutMr;
    private MemoryRegion backSourceMr;
    private long expected;

    IsolatedPair(long id, int slot, IsolationTally tally) {
        this.id = id;
        this.slot = slot;
        this.tally = tally;
    }

    /** A's QP, sending from {@code sourceMemory} (direct memory of its own), with its ack receives posted. */
    QueuePair openInitiator(RdmaDevice dev, CompletionQueue cq, ByteBuffer sourceMemory) {
        aLock.lock();
        try {
            a.pd = dev.allocatePd();
            a.qp = a.pd.createQp(QpInit.rc(cq).maxSendWr(2 * WINDOW + 4).maxRecvWr(WINDOW).context(a));
            this.sourceMemory = sourceMemory;
            source = a.pd.register(sourceMemory, Access.LOCAL_WRITE);
            acksInMr = a.pd.register(acksIn, Access.LOCAL_WRITE);
            backBuffer = a.pd.register(backTarget, Access.LOCAL_WRITE, Access.REMOTE_WRITE).advertise();
            for (int k = 0; k < WINDOW; k++) {
                a.qp.postRecv(RecvWr.of(k, acksInMr.sge(k * ACK, ACK)));
            }
            return a.qp;
        } finally {
            aLock.unlock();
        }
    }

    /** B's QP, with its target region registered and its receives posted (on the device's event thread). */
    QueuePair openResponder(RdmaDevice dev, CompletionQueue cq) {
        synchronized (b) {
            b.pd = dev.allocatePd();
            b.qp = b.pd.createQp(QpInit.rc(cq).maxSendWr(2 * WINDOW + 4).maxRecvWr(WINDOW).context(b));
            targetBuffer = b.pd.register(target, Access.LOCAL_WRITE, Access.REMOTE_WRITE).advertise();
            recvMr = b.pd.register(recv, Access.LOCAL_WRITE);
            acksOutMr = b.pd.register(acksOut, Access.LOCAL_WRITE);
            backSourceMr = b.pd.register(backSource, Access.LOCAL_WRITE);
            for (int k = 0; k < WINDOW; k++) {
                b.qp.postRecv(RecvWr.of(k, recvMr.sge(k * RECV, RECV)));
            }
            return b.qp;
        }
    }

    ByteBuffer sourceMemory() {
        return sourceMemory;
    }

    /** Posts the first window of messages (both QPs connected). */
    void start() {
        aLock.lock();
        try {
            lastProgress = System.nanoTime();
            while (nextSeq < WINDOW) {
                if (!postMessage(nextSeq++)) {
                    return;
                }
            }
        } finally {
            aLock.unlock();
        }
    }

    /**
     * A posts no more messages; what is in flight still completes. Once this returns no thread writes the pair's
     * source memory. False when a thread kept A's side for
     * {@code waitNanos} (stuck in a verbs call).
     */
    boolean stop(long waitNanos) throws InterruptedException {
        stopping = true;
        if (!aLock.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
            return false;
        }
        aLock.unlock();
        return true;
    }

    /** Messages A posted that B has not acknowledged (read without A's lock: for the test's checks). */
    long unacknowledged() {
        return nextSeq - nextAck;
    }

    /** A completion of one of this pair's QPs (a polling thread). */
    void completed(End e, Completion c) {
        if (!c.isOk()) {
            if (reset) {
                tally.failuresAfterReset.increment();
            } else {
                tally.note(tally.untouchedFailures, e + " (not reset): " + c + "; " + describe());
            }
            return;
        }
        if (c.opcode() != CompletionOpcode.RECV) {
            return; // A's WRITE and SEND, B's ack: retired
        }
        if (e.initiator) {
            acked(c);
        } else {
            received(c);
        }
    }

    private void received(Completion c) {
        synchronized (b) {
            int k = (int) c.id();
            int off = k * RECV;
            long tag = getLong(recv, off);
            long seq = getLong(recv, off + 8);
            if (!checkTag(tag, seq, "SEND", expected)) {
                return;
            }
            int sendLength = sendLength(id, seq);
            if (c.byteLength() != sendLength || !filled(recv, off, sendLength, seq)) {
                fault(tally.mangled, "pair " + id + " B: SEND " + seq + " of " + c.byteLength() + " B, wrong bytes");
                return;
            }
            int toff = (int) (seq % SLOTS) * SLOT;
            long wtag = getLong(target, toff);
            long wseq = getLong(target, toff + 8);
            if (!checkTag(wtag, wseq, "landed WRITE", seq) || !filled(target, toff, writeLength(id, seq), seq)) {
                if (wtag == id && wseq == seq) {
                    fault(tally.mangled, "pair " + id + " B: WRITE " + seq + " landed with wrong bytes");
                }
                return;
            }
            expected++;
            tally.messages.increment();
            int ack = (int) (seq % WINDOW) * ACK;
            putLong(acksOut, ack, id);
            putLong(acksOut, ack + 8, seq);
            int backLength = backLength(id, seq);
            TaggedMessage.write(backSource, toff, backLength, id, seq);
            io.jrnic.verbs.RemoteBuffer back = backBuffer;
            post(b, () -> {
                b.qp.postRecv(RecvWr.of(k, recvMr.sge(off, RECV)));
                b.qp.postSend(SendWr.rdmaWrite().id(2 * seq).local(backSourceMr, toff, backLength).remote(back, toff)
                        .signaled(), SendWr.send().id(2 * seq + 1).local(acksOutMr, ack, ACK).signaled());
            });
        }
    }

    private void acked(Completion c) {
        aLock.lock();
        try {
            int k = (int) c.id();
            int off = k * ACK;
            long tag = getLong(acksIn, off);
            long seq = getLong(acksIn, off + 8);
            if (!checkTag(tag, seq, "ack", nextAck)) {
                return;
            }
            if (c.byteLength() != ACK) {
                fault(tally.mangled, "pair " + id + " A: ack " + seq + " of " + c.byteLength() + " B");
                return;
            }
            int toff = (int) (seq % SLOTS) * SLOT;
            long wtag = getLong(backTarget, toff);
            long wseq = getLong(backTarget, toff + 8);
            if (!checkTag(wtag, wseq, "landed WRITE", seq) || !filled(backTarget, toff, backLength(id, seq), seq)) {
                if (wtag == id && wseq == seq) {
                    fault(tally.mangled, "pair " + id + " A: WRITE " + seq + " landed with wrong bytes");
                }
                return;
            }
            nextAck++;
            tally.acks.increment();
            lastProgress = System.nanoTime();
            if (!post(a, () -> a.qp.postRecv(RecvWr.of(k, acksInMr.sge(off, ACK))))) {
                return;
            }
            if (!stopping) {
                postMessage(nextSeq++);
            }
        } finally {
            aLock.unlock();
        }
    }

    /** True when the tag is this pair's and {@code seq} the one expected; else counts a foreign or mangled one. */
    private boolean checkTag(long tag, long seq, String what, long expectedSeq) {
        if (tag != id && tag >= 1 && tag <= ConnectionIsolationStressTest.lastId()) {
            fault(tally.foreign, "pair " + id + ": " + what + " tagged by connection " + tag + " (its message "
                    + seq + "); " + describe());
            return false;
        }
        if (tag != id || seq != expectedSeq) {
            fault(tally.mangled, "pair " + id + ": " + what + " tagged (" + tag + ", " + seq + "), expected ("
                    + id + ", " + expectedSeq + "); " + describe());
            return false;
        }
        return true;
    }

    private void fault(java.util.concurrent.atomic.LongAdder counter, String what) {
        faulted = true;
        tally.note(counter, what);
    }

    /** Under A's lock: message {@code seq}, a WRITE then a SEND from the source slot. */
    private boolean postMessage(long seq) {
        if (stopping) {
            return false;
        }
        int off = (int) (seq % SLOTS) * SLOT;
        int writeLength = writeLength(id, seq);
        int sendLength = sendLength(id, seq);
        ByteBuffer m = sourceMemory;
        m.putLong(off, id).putLong(off + 8, seq);
        for (int i = 16; i < Math.max(writeLength, sendLength); i++) {
            m.put(off + i, fill(id, seq, i));
        }
        io.jrnic.verbs.RemoteBuffer dst = targetBuffer;
        return post(a, () -> a.qp.postSend(
                SendWr.rdmaWrite().id(2 * seq).local(source, off, writeLength).remote(dst, off).signaled(),
                SendWr.send().id(2 * seq + 1).local(source, off, sendLength).signaled()));
    }

    /**
     * Runs a post; false when it threw. QpStateException and ResourceClosedException are the verbs' documented
     * outcome for a QP that left RTS or was closed: expected after a reset, an untouched failure otherwise; any other
     * exception escaped a verbs call.
     */
    private boolean post(End e, Runnable r) {
        try {
            r.run();
            return true;
        } catch (QpStateException | ResourceClosedException x) {
            if (!reset) {
                tally.note(tally.untouchedFailures, e + " (not reset): post failed: " + x + "; " + describe());
            }
        } catch (RuntimeException x) {
            tally.exception(e + " post", x);
        }
        return false;
    }

    /** Closes both QPs, the A side's connection manager and both PDs (with their regions); after {@link #stop}. */
    void close() {
        reset = true;
        for (End e : new End[] {a, b}) {
            QueuePair q = e.qp;
            if (q != null) {
                tally.inPlaceReads.add(q.stats().counter("rxInPlace")); // the soft provider's counter: printed only
            }
        }
        for (AutoCloseable r : new AutoCloseable[] {cm, a.qp, b.qp, a.pd, b.pd}) {
            try {
                if (r != null) {
                    r.close();
                }
            } catch (Exception x) {
                tally.exception(this + " close", x);
            }
        }
    }

    /** States and unacknowledged messages only. */
    String brief() {
        QueuePair qa = a.qp;
        QueuePair qb = b.qp;
        return "pair " + id + " (slot " + slot + (reset ? ", reset" : "") + "): A " + (qa == null ? "-" : qa.state())
                + ", B " + (qb == null ? "-" : qb.state()) + ", unacknowledged " + unacknowledged();
    }

    /** States and every counter of both QPs. */
    String describe() {
        return "pair " + id + " (slot " + slot + (reset ? ", reset" : "") + "): " + a.describe() + "; " + b.describe();
    }

    @Override
    public String toString() {
        return "pair " + id;
    }
}
