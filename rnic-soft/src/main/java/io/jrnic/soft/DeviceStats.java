package io.jrnic.soft;

import io.jrnic.soft.engine.QpCounters;
import io.jrnic.verbs.Stats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A device's counters: the sum of its live QPs' counters plus those of QPs already closed, and the
 * device-level MPA set-up failures by reason. MPA set-up failures come from any connection's
 * event loop, so they are {@link LongAdder}s; the QP counters stay single-writer in their QPs and
 * are only summed when a snapshot is taken.
 */
final class DeviceStats {
    private final Set<QpCounters> live = ConcurrentHashMap.newKeySet();
    private final long[] retired = new long[QpCounters.size()];
    private final Map<String, Long> retiredSent = new LinkedHashMap<>();
    private final Map<String, Long> retiredReceived = new LinkedHashMap<>();
    private final Map<String, LongAdder> setupFailures = new ConcurrentHashMap<>();

    void add(QpCounters c) {
        live.add(c);
    }

    /** A QP closed: its counters stay in the device's totals. */
    synchronized void retire(QpCounters c) {
        if (live.remove(c)) {
            c.addTo(retired);
            c.terminatesTo(retiredSent, retiredReceived);
        }
    }

    /** An MPA connection set-up failed for {@code reason} (MpaFailure reason, TIMEOUT or LOCAL). */
    void setupFailed(String reason) {
        setupFailures.computeIfAbsent(reason, k -> new LongAdder()).increment();
    }

    Stats snapshot() {
        Map<String, Long> failures = new LinkedHashMap<>();
        setupFailures.forEach((k, v) -> failures.put(k, v.sum()));
        synchronized (this) {
            return sum(new ArrayList<>(live), retired.clone(), new LinkedHashMap<>(retiredSent),
                    new LinkedHashMap<>(retiredReceived), Map.of(), failures);
        }
    }

    /** A snapshot of {@code qps} (one QP's, typically) with the given TCP figures. */
    static Stats snapshot(Collection<QpCounters> qps, Map<String, Long> tcp, Map<String, Long> failures) {
        return sum(qps, new long[QpCounters.size()], new LinkedHashMap<>(), new LinkedHashMap<>(), tcp, failures);
    }

    /** Adds {@code qps} into the given starting values and wraps the result. */
    private static Stats sum(Collection<QpCounters> qps, long[] v, Map<String, Long> sent, Map<String, Long> received,
                             Map<String, Long> tcp, Map<String, Long> failures) {
        for (QpCounters c : qps) {
            c.addTo(v);
            c.terminatesTo(sent, received);
        }
        return new Stats(QpCounters.named(v), sent, received, failures, tcp);
    }
}
