package io.jrnic.verbs;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import io.jrnic.verbs.spi.InputWaiter;

/**
 * A completion queue. The ring lives in the API (preallocated, no allocation per completion), so
 * every provider gets identical semantics: providers append through
 * {@link io.jrnic.verbs.spi.QpUpcalls}; applications drain with {@link #poll(Completion[])}.
 *
 * <ul>
 * <li>Order: completions of one queue (SQ or RQ) appear in the order the provider produced them,
 * which is posting order (RDMAC verbs; RFC 5040 section 5 completion ordering).</li>
 * <li>Overflow: a completion arriving when {@link #capacity()} are queued is not queued; the CQ
 * becomes {@link #isOverflowed() overflowed} (sticky), CQ_OVERFLOW is raised once, and the provider
 * is told so it can move the QP to ERROR. Size CQs for the sum of the queues attached to them.</li>
 * <li>Blocking: {@link #take(Completion[], Duration)} polls, and when nothing is queued waits on this CQ until a
 * completion is queued, the timeout passes or the CQ closes; no channel needed, no wake-up lost.</li>
 * <li>Notification: {@link #requestNotify(boolean)} arms one notification for the next completion
 * queued after the call (any, or only solicited receive / error completions) to the CQ's
 * {@link CompletionChannel}. Re-arm, then poll again, to avoid the classic lost-wakeup race.</li>
 * <li>Completions of operations posted through {@link QueuePair#async()} complete their futures on
 * the polling thread and are not returned in the poll array.</li>
 * <li>Closing a CQ first closes every QP that uses it.</li>
 * </ul>
 */
public final class CompletionQueue extends Resource {
    private final RdmaDevice device;
    private final int capacity;
    private final Object context;
    private final CompletionChannel channel;
    private final Completion[] ring;
    private final Object lock = new Object();
    /** The QPs this CQ serves: what a poller lets progress, and the one a blocked consumer may wait on. */
    private final CqUsers users = new CqUsers(this);
    private int head;
    private int count;
    private boolean overflowed;
    private int armed; // 0 none, 1 any, 2 solicited only
    /** Threads in {@link #take} waiting on {@code queued} (guarded by {@code lock}): {@link #push} wakes them. */
    private int takers;
    /** The thread waiting on the sole QP's input instead of on {@code lock} ({@link #awaitInput}), or null. */
    private InputWaiter inputWaiter;
    /**
     * What {@link #take} waits on: a {@link Condition}, not {@code lock.wait}, so that a virtual thread waiting here
     * unmounts from its carrier on JDK 21-23 too (there {@code Object.wait} pins it; JDK 24+ unmounts either way,
     * JEP 491). A taker holds {@code takeLock} from its empty check (under {@code lock}, counting itself in
     * {@code takers}) into {@code awaitNanos}; a push that saw takers signals under {@code takeLock}, so it signals
     * either before the check (which then sees the completion) or into the wait: no wake-up is lost.
     */
    private final ReentrantLock takeLock = new ReentrantLock();
    private final Condition queued = takeLock.newCondition();

    CompletionQueue(RdmaDevice device, int capacity, CompletionChannel channel, Object context) {
        super(device, "CompletionQueue");
        this.device = device;
        this.capacity = capacity;
        this.channel = channel;
        this.context = context;
        this.ring = Completion.array(capacity);
        if (channel != null) {
            channel.cqCreated(this);
        }
    }

    @Override
    int closeRank() {
        return 2;
    }

    public RdmaDevice device() {
        return device;
    }

    public int capacity() {
        return capacity;
    }

    public Object context() {
        return context;
    }

    /** The channel notifications go to, or null. */
    public CompletionChannel channel() {
        return channel;
    }

    /** Completions queued now. */
    public int size() {
        synchronized (lock) {
            return count;
        }
    }

    /** True once a completion was lost to overflow (sticky). */
    public boolean isOverflowed() {
        synchronized (lock) {
            return overflowed;
        }
    }

    /** Polls into all of {@code into}; see {@link #poll(Completion[], int, int)}. */
    public int poll(Completion[] into) {
        return poll(into, 0, into.length);
    }

    /**
     * Moves up to {@code max} completions, oldest first, into {@code into[offset..]} and returns how
     * many. Never blocks, never allocates (except for async-layer completions, see class doc).
     * Completions already queued can still be polled after the CQ overflowed.
     *
     * @throws ResourceClosedException when closed
     */
    public int poll(Completion[] into, int offset, int max) {
        Objects.checkFromIndexSize(offset, max, into.length);
        checkOpen();
        int n = take(into, offset, max);
        if (n == 0 && max > 0 && users.progress(true)) {
            n = take(into, offset, max);
        }
        return n;
    }

    /**
     * Blocking poll: moves up to {@code into.length} completions, oldest first, into {@code into} and returns how many;
     * when none is queued, waits until one is, or {@code timeout} passes (then returns 0). The wait is on this CQ
     * itself, checked under the lock {@link #push} takes, so a completion queued between the empty poll and the wait
     * is not missed (the arm / poll again / await loop, done once here). Before waiting, the providers are told the
     * consumer stops polling, as {@link #requestNotify} does. Independent of any {@link CompletionChannel}: a CQ with
     * a channel can be taken from, and arming it is not needed.
     *
     * @throws ResourceClosedException when closed, also while waiting
     * @throws InterruptedException when interrupted while waiting
     */
    public int take(Completion[] into, Duration timeout) throws InterruptedException {
        if (into.length == 0) {
            throw new IllegalArgumentException("no room for a completion");
        }
        // at most ~146 years: Duration.toNanos would overflow past ~292, and so would the deadline
        long wait = timeout.compareTo(LONGEST_TAKE) > 0 ? LONGEST_TAKE.toNanos() : timeout.toNanos();
        long deadline = System.nanoTime() + wait;
        while (true) {
            int n = poll(into, 0, into.length);
            if (n > 0) {
                return n;
            }
            long before = deadline - System.nanoTime();
            if (before > 0) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                if (awaitInput(before, false)) {
                    continue; // woken by the QP's input (or a push): progress and poll again
                }
            }
            users.stopPolling(); // the provider's own threads queue what comes next; push wakes us (see queued)
            takeLock.lockInterruptibly();
            try {
                long left;
                synchronized (lock) {
                    left = deadline - System.nanoTime();
                    if (count > 0) {
                        continue;
                    }
                    if (isClosedFlag()) {
                        throw new ResourceClosedException("CompletionQueue");
                    }
                    if (left <= 0) {
                        return 0;
                    }
                    takers++;
                }
                try {
                    queued.awaitNanos(left);
                } finally {
                    synchronized (lock) {
                        takers--;
                    }
                }
            } finally {
                takeLock.unlock();
            }
        }
    }

    /** Wakes the threads in {@link #take} (after {@code push} or {@code release} saw takers under {@code lock}). */
    private void wakeTakers() {
        takeLock.lock();
        try {
            queued.signalAll();
        } finally {
            takeLock.unlock();
        }
    }

    private static final Duration LONGEST_TAKE = Duration.ofNanos(Long.MAX_VALUE / 2);

    /**
     * One wake-up for a blocked consumer (spec-notes/engine.md, "Blocking waiters"): when this CQ serves one QP whose
     * provider offers an {@link InputWaiter}, the calling thread waits on that QP's input itself, at most
     * {@link InputWaiter#LONGEST_WAIT_NANOS}, one thread at a time; {@link #push} and closing wake it. True when it
     * waited (the caller progresses and polls again); false when it cannot (the caller waits on the CQ or channel).
     * {@code evenIfQueued}: wait although completions are queued (a channel waits for a notification, not for them).
     */
    boolean awaitInput(long nanos, boolean evenIfQueued) {
        InputWaiter w = users.soleInputWaiter();
        if (w == null) {
            if (users.single()) {
                // the sole QP's peer stopped owing this CQ anything since requestNotify looked: its threads read
                users.stopPolling();
            }
            return false;
        }
        synchronized (lock) {
            if ((count > 0 && !evenIfQueued) || isClosedFlag()) {
                return true;
            }
            if (inputWaiter != null) {
                return false;
            }
            inputWaiter = w;
        }
        try {
            return w.await(Math.min(nanos, InputWaiter.LONGEST_WAIT_NANOS));
        } finally {
            synchronized (lock) {
                if (inputWaiter == w) {
                    inputWaiter = null;
                }
            }
        }
    }

    /** {@link CqUsers#soleInputWaiter()} (for the channel). */
    InputWaiter soleInputWaiter() {
        return users.soleInputWaiter();
    }

    /**
     * Lets the providers of this CQ's QPs progress on the calling thread (a software provider reads and processes
     * what their streams hold: jrnic's soft provider receives in place), at most
     * {@value CqUsers#PROGRESS_PER_CALL} QPs per call, round robin. {@link #poll} calls it whenever it finds the CQ empty, for the QPs whose peers may still
     * send something that completes on this CQ ({@link InboundAwaited}); a loop that waits for memory a peer writes
     * (an RDMA Write's last byte, which completes nothing) calls it itself to avoid waiting for the provider's own
     * threads. Never blocks; true when anything was done.
     */
    public boolean progress() {
        return users.progress(false);
    }

    private int take(Completion[] into, int offset, int max) {
        int n = 0;
        while (n < max) {
            Completion forListener = null;
            synchronized (lock) {
                while (n < max && count > 0) {
                    Completion slot = ring[head];
                    head = (head + 1) % capacity;
                    count--;
                    if (slot.listener != null) {
                        forListener = new Completion().copyFrom(slot);
                        forget(slot);
                        break;
                    }
                    into[offset + n++].copyFrom(slot).listener = null;
                    forget(slot);
                }
            }
            if (forListener == null) {
                break;
            }
            Consumer<Completion> l = forListener.listener;
            forListener.listener = null;
            l.accept(forListener);
        }
        return n;
    }

    /**
     * Drops a polled slot's references (QP, Terminate, listener): a ring slot is reused only when the ring comes
     * round, and until then it must not keep a closed QP, its stream and its buffers reachable.
     */
    private static void forget(Completion slot) {
        slot.qp = null;
        slot.terminate = null;
        slot.listener = null;
    }

    /**
     * Arms one notification to the channel, and tells the providers of this CQ's QPs that the consumer stops
     * polling (a software provider whose pollers took over receiving hands it back to its own threads).
     *
     * @throws IllegalStateException without a channel
     */
    public void requestNotify(boolean solicitedOnly) {
        checkOpen();
        if (channel == null) {
            throw new IllegalStateException("CQ has no CompletionChannel (create it with createCq(capacity, channel)"
                    + " or CqInit.channel; or wait with take)");
        }
        synchronized (lock) {
            if (armed != 1) {
                armed = solicitedOnly ? 2 : 1;
            }
        }
        if (!channel.waitsOnInput(this)) {
            users.stopPolling(); // else the channel's await waits on the QP's input itself (awaitInput)
        }
    }

    void attach(QueuePair qp) {
        checkOpen();
        users.attach(qp);
    }

    void detach(QueuePair qp) {
        users.detach(qp);
    }

    /** Appends a completion (provider path). False when it was lost to overflow or the CQ is closed. */
    boolean push(Completion c) {
        boolean notify = false;
        boolean wake = false;
        boolean dropped = false;
        boolean overflowNow = false;
        synchronized (lock) {
            if (isClosedFlag()) {
                return false;
            }
            if (count == capacity) {
                dropped = true;
                overflowNow = !overflowed;
                overflowed = true;
            } else {
                ring[(head + count) % capacity].copyFrom(c);
                count++;
                wake = takers > 0;
                if (inputWaiter != null) {
                    inputWaiter.wake();
                }
                if (armed == 1 || (armed == 2 && (c.solicited || !c.isOk()))) {
                    armed = 0;
                    notify = true;
                }
            }
        }
        if (wake) {
            wakeTakers();
        }
        if (overflowNow) {
            Observe.cqOverflow(capacity);
            device.raise(AsyncEventType.CQ_OVERFLOW, this, context, null);
        }
        if (notify) {
            channel.notifyFrom(this);
        }
        return !dropped;
    }

    @Override
    void release() {
        for (QueuePair qp : users.snapshot()) {
            qp.close();
        }
        synchronized (lock) {
            count = 0;
            if (inputWaiter != null) {
                inputWaiter.wake();
            }
        }
        wakeTakers(); // takers see the CQ closed
        if (channel != null) {
            channel.cqClosed(this);
        }
        device.cqs.decrementAndGet();
    }

    @Override
    public String toString() {
        return "CompletionQueue[capacity=" + capacity + " context=" + context + "]";
    }
}
