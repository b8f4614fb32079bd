package io.jrnic.verbs;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link CompletionChannel}'s fired notifications, oldest first: a blocking queue that allocates nothing per
 * notification (a {@code LinkedBlockingQueue} allocated a node for each, on the path from a completion to the
 * consumer it wakes). Bounded in practice: a CQ fires once per arming, so it holds at most one entry per CQ and the
 * closed marker; the array grows to that once and is kept. A {@link ReentrantLock} and its {@link Condition}, so that
 * a virtual thread waiting here unmounts from its carrier.
 */
final class Notifications {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final ArrayDeque<Object> fired = new ArrayDeque<>(4);

    void offer(Object o) {
        lock.lock();
        try {
            fired.addLast(o);
            nonEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest, or null. */
    Object poll() {
        lock.lock();
        try {
            return fired.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /** The oldest, waiting up to {@code timeout} for one; null when none came. */
    Object poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (fired.isEmpty()) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = nonEmpty.awaitNanos(nanos);
            }
            return fired.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Drops every entry, then queues {@code last} (closing: only the closed marker stays). */
    void replaceAll(Object last) {
        lock.lock();
        try {
            fired.clear();
            fired.addLast(last);
            nonEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
