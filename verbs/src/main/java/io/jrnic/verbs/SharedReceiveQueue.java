package io.jrnic.verbs;

import io.jrnic.verbs.spi.SrqSpi;
import io.jrnic.verbs.spi.SrqUpcalls;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A shared receive queue: QPs created with {@link QpInit#srq} take their receives from it, oldest
 * first. {@link #depth()} shows how many are posted; {@link #armLimit(int)} raises
 * SRQ_LIMIT_REACHED once when the depth drops below the limit (then disarms), so a service can
 * refill before it stalls. Closing it first closes the QPs that use it; receives still posted are
 * released without completions (they belong to no QP).
 */
public final class SharedReceiveQueue extends Resource {
    private final ProtectionDomain pd;
    private final int maxWr;
    private final int maxSge;
    private final Object context;
    private final SrqSpi spi;
    private final ArrayDeque<RecvWr> queue;
    private final Set<QueuePair> users = ConcurrentHashMap.newKeySet();
    private final RecvWr[] one = new RecvWr[1];
    private int limit;

    private SharedReceiveQueue(ProtectionDomain pd, int maxWr, int maxSge, Object context) {
        super(pd, "SharedReceiveQueue");
        this.pd = pd;
        this.maxWr = maxWr;
        this.maxSge = maxSge;
        this.context = context;
        this.queue = new ArrayDeque<>(maxWr);
        this.spi = pd.spi().createSrq(maxWr, maxSge, new SrqUpcalls() {
            @Override
            public SharedReceiveQueue srq() {
                return SharedReceiveQueue.this;
            }

            @Override
            public void error() {
                if (!isClosedFlag()) {
                    pd.device().raise(AsyncEventType.SRQ_ERROR, SharedReceiveQueue.this, context, null);
                }
            }
        });
    }

    static SharedReceiveQueue create(ProtectionDomain pd, int maxWr, int maxSge, Object context) {
        DeviceAttributes a = pd.device().attributes();
        if (!a.has(DeviceCapability.SHARED_RECEIVE_QUEUE)) {
            throw new UnsupportedOperationException("device has no shared receive queues");
        }
        if (maxWr < 1 || maxWr > a.maxSrqWr()) {
            throw new IllegalArgumentException("SRQ maxWr " + maxWr + " outside 1.." + a.maxSrqWr());
        }
        if (maxSge < 1 || maxSge > a.maxSge()) {
            throw new IllegalArgumentException("SRQ maxSge " + maxSge + " outside 1.." + a.maxSge());
        }
        RdmaDevice.reserve(pd.device().srqs, a.maxSrq(), "shared receive queues");
        try {
            return new SharedReceiveQueue(pd, maxWr, maxSge, context);
        } catch (RuntimeException e) {
            pd.device().srqs.decrementAndGet();
            throw e;
        }
    }

    @Override
    int closeRank() {
        return 1;
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public Object context() {
        return context;
    }

    public int maxWr() {
        return maxWr;
    }

    /** Receives posted and not consumed. */
    public int depth() {
        synchronized (queue) {
            return queue.size();
        }
    }

    /** Arms the low-water event at {@code limit} (1..maxWr), or disarms with 0. */
    public void armLimit(int limit) {
        checkOpen();
        if (limit < 0 || limit > maxWr) {
            throw new IllegalArgumentException("limit " + limit + " outside 0.." + maxWr);
        }
        synchronized (queue) {
            this.limit = limit;
        }
    }

    /** Current armed limit, 0 when disarmed. */
    public int limit() {
        synchronized (queue) {
            return limit;
        }
    }

    public void postRecv(RecvWr wr) {
        synchronized (queue) {
            one[0] = wr;
            try {
                postLocked(one, 1);
            } finally {
                one[0] = null;
            }
        }
    }

    /** All or nothing; exceptions as {@link QueuePair#postRecv(RecvWr...)} (no state check: an SRQ has none). */
    public void postRecv(RecvWr... wrs) {
        synchronized (queue) {
            postLocked(wrs.clone(), wrs.length);
        }
    }

    public void postRecv(List<RecvWr> wrs) {
        postRecv(wrs.toArray(new RecvWr[0]));
    }

    private void postLocked(RecvWr[] wrs, int n) {
        checkOpen();
        for (int i = 0; i < n; i++) {
            if (wrs[i].isInFlight()) {
                throw new WorkRequestInFlightException(wrs[i]);
            }
            WorkRequestValidator.validateRecv(pd, maxSge, wrs[i], i);
        }
        if (queue.size() + n > maxWr) {
            throw new QueueFullException("shared receive queue", queue.size(), n, maxWr);
        }
        for (int i = 0; i < n; i++) {
            if (!wrs[i].acquire(this)) {
                for (int j = 0; j < i; j++) {
                    wrs[j].release();
                }
                throw new WorkRequestInFlightException(wrs[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            queue.addLast(wrs[i]);
        }
        try {
            spi.postRecv(wrs, 0, n);
        } catch (RuntimeException e) {
            for (int i = 0; i < n; i++) {
                queue.removeLastOccurrence(wrs[i]);
                wrs[i].release();
            }
            throw e;
        }
    }

    /** Removes a consumed receive; raises the limit event when the depth fell below the armed limit. */
    boolean retire(RecvWr wr) {
        boolean fire = false;
        synchronized (queue) {
            if (!queue.removeFirstOccurrence(wr)) {
                return false;
            }
            if (limit > 0 && queue.size() < limit) {
                limit = 0;
                fire = true;
            }
        }
        if (fire) {
            pd.device().raise(AsyncEventType.SRQ_LIMIT_REACHED, this, context, null);
        }
        return true;
    }

    SrqSpi spi() {
        return spi;
    }

    void attach(QueuePair qp) {
        users.add(qp);
    }

    void detach(QueuePair qp) {
        users.remove(qp);
    }

    @Override
    void release() {
        for (QueuePair qp : users.toArray(new QueuePair[0])) {
            qp.close();
        }
        try {
            spi.close();
        } finally {
            synchronized (queue) {
                for (RecvWr wr : queue) {
                    wr.listener = null;
                    wr.release();
                }
                queue.clear();
            }
            pd.device().srqs.decrementAndGet();
        }
    }
}
