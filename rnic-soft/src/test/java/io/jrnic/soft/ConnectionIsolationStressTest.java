package io.jrnic.soft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jrnic.verbs.AsyncEvent;
import io.jrnic.verbs.AsyncEventType;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.QpState;
import io.jrnic.verbs.Rdma;
import io.jrnic.verbs.RdmaDevice;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connection isolation under resets (RFC 5042: one stream's bytes never reach another's memory), through the public
 * verbs API only. Two soft devices; {@code PAIRS} connection pairs with MPA CRC on, each an {@link IsolatedPair}
 * (a PD per connection on each side) whose every SEND and WRITE, in both directions, carries its connection's id and
 * a sequence number; every CQ busy-polled by a thread of its own ({@code poll} in a loop: what drives the provider's
 * receive in place); about {@code RESETS_PER_SECOND} connections reset under load (RST: the initiator's own
 * connection manager closed, so the responder's stream fails under its event loop or its poller) and each replaced
 * by a new pair connecting at once (descriptor numbers are reused). Asserts: no receive or landed WRITE tagged by
 * another connection (foreign), none mangled (own tag out of sequence, wrong length or bytes), no failure (error
 * completion, QP async event, failed post, QP not in RTS after the load) on a pair nobody reset, no exception from
 * a verbs call other than the documented QpStateException/ResourceClosedException after a reset, no failed set-up,
 * and no hang: a pair not reset without an ack for 10 s, a reset pair whose QPs do not leave RTS, a set-up, drain or
 * poller that does not end within 20 s each stop the run and fail it with the QP states and counters. A responder
 * QP that takes the reset for an orderly close (IDLE instead of ERROR) is counted and printed, not asserted.
 *
 * <p>Default run: 8 pairs for 3 s (about 5 s in all). Longer: {@code ./mvnw -B test -pl rnic-soft -am
 * -Dtest=ConnectionIsolationStressTest -Djrnic.isolationSeconds=30 -Djrnic.isolationPairs=32
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Djrnic.isolationResets=N} resets per second, default 30).
 * Fixtures: {@link PairSetup} connects the pairs, {@link BusyPollers} polls the CQs, {@link IsolationTally} counts.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ConnectionIsolationStressTest {
    private static final int PAIRS = Integer.getInteger("jrnic.isolationPairs", 8);
    private static final int SECONDS = Integer.getInteger("jrnic.isolationSeconds", 3);
    private static final int RESETS_PER_SECOND = Integer.getInteger("jrnic.isolationResets", 30);
    /** CQs per device, each with its own busy poller. */
    private static final int CQS = 2;
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long PHASE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final AtomicLong IDS = new AtomicLong();

    private final IsolationTally tally = new IsolationTally();
    private final IsolatedPair[] pairs = new IsolatedPair[PAIRS];
    /** Reset pairs waiting for both QPs to leave RTS before they are closed, with when they were reset. */
    private final Map<IsolatedPair, Long> retiring = new java.util.LinkedHashMap<>();
    private final BusyPollers pollers = new BusyPollers(tally,
            TimeUnit.SECONDS.toNanos(SECONDS) + 4 * PHASE_NANOS + (long) PAIRS * PHASE_NANOS);
    private RdmaDevice devA;
    private RdmaDevice devB;
    private final CompletionQueue[] cqsA = new CompletionQueue[CQS];
    private final CompletionQueue[] cqsB = new CompletionQueue[CQS];
    /** Sets the pairs up (B listens, CRC on). */
    private PairSetup setup;
    /** Why the run stopped early: a hang, with its diagnostic. */
    private volatile String hang;

    /** The highest connection id given out so far: a tag above it (or below 1) is not a connection's. */
    static long lastId() {
        return IDS.get();
    }

    @Test
    void noConnectionSeesAnothersBytesWhileConnectionsAreResetUnderLoad() throws Exception {
        try {
            devA = Rdma.open("soft");
            devB = Rdma.open("soft");
            devA.onAsyncEvent(this::event);
            devB.onAsyncEvent(this::event);
            for (int i = 0; i < CQS; i++) {
                cqsA[i] = devA.createCq(16 * 1024);
                cqsB[i] = devB.createCq(16 * 1024);
            }
            setup = new PairSetup(tally, devA, cqsA, devB, cqsB, PHASE_NANOS);
            for (int i = 0; i < PAIRS; i++) {
                open(i);
            }
            long deadline = System.nanoTime() + PHASE_NANOS;
            while (!setup.settled() && System.nanoTime() < deadline) {
                admit();
                Thread.sleep(1);
            }
            for (CompletionQueue cq : cqsA) {
                pollers.start(cq, "A");
            }
            for (CompletionQueue cq : cqsB) {
                pollers.start(cq, "B");
            }
            load();
            drain();
        } finally {
            pollers.stop(PHASE_NANOS, this::hang);
            for (IsolatedPair p : pairs) {
                if (p != null) {
                    p.stop(0);
                    p.close();
                }
            }
            for (IsolatedPair p : retiring.keySet()) {
                p.close();
            }
            if (setup != null) {
                setup.closeAll();
            }
            if (devA != null) {
                devA.close();
            }
            if (devB != null) {
                devB.close();
            }
        }
        String figures = tally.figures();
        System.out.println("ConnectionIsolationStressTest (" + PAIRS + " pairs, " + SECONDS + " s, " + RESETS_PER_SECOND
                + " resets/s): " + figures);
        String failure = figures + "\nfirst faults:\n" + tally.notes();
        assertTrue(tally.foreign.sum() == 0, "messages tagged by another connection: " + failure);
        assertTrue(tally.mangled.sum() == 0, "mangled messages: " + failure);
        assertTrue(tally.untouchedFailures.sum() == 0, "failures on connections nobody reset: " + failure);
        assertTrue(tally.exceptions.sum() == 0, "exceptions escaped verbs calls: " + failure);
        assertTrue(tally.setupFailures.sum() == 0, "connection set-ups failed: " + failure);
        assertTrue(hang == null, "hang: " + hang + "\n" + failure);
        assertTrue(tally.messages.sum() > 0 && tally.resets.sum() > 0, "nothing was exercised: " + failure);
    }

    /** Runs traffic for SECONDS, resetting and replacing a random pair RESETS_PER_SECOND times a second. */
    private void load() throws InterruptedException {
        SplittableRandom random = new SplittableRandom(20);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(SECONDS);
        long period = TimeUnit.SECONDS.toNanos(1) / Math.max(1, RESETS_PER_SECOND);
        long nextReset = start + period;
        long nextCheck = start;
        while (System.nanoTime() < end && hang == null) {
            admit();
            long now = System.nanoTime();
            if (RESETS_PER_SECOND > 0 && now >= nextReset) {
                int slot = random.nextInt(PAIRS);
                for (int k = 0; k < PAIRS && pairs[slot] == null; k++) {
                    slot = (slot + 1) % PAIRS; // a pair in traffic, not one still connecting
                }
                resetAndReplace(slot);
                nextReset = Math.max(nextReset + period, System.nanoTime());
            }
            if (now >= nextCheck) {
                retire();
                checkStalls();
                nextCheck = now + TimeUnit.MILLISECONDS.toNanos(200);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Stops posting and waits until every pair's messages are acknowledged and every reset pair retired; the pairs
     * not reset stay in RTS.
     */
    private void drain() throws InterruptedException {
        if (hang != null) {
            return;
        }
        long deadline = System.nanoTime() + PHASE_NANOS;
        while ((!retiring.isEmpty() || !setup.settled()) && hang == null && System.nanoTime() < deadline) {
            retire();
            admit();
            Thread.sleep(1);
        }
        if (hang != null) {
            return;
        }
        for (IsolatedPair p : pairs) {
            if (p != null && !p.stop(PHASE_NANOS)) {
                hang("a thread kept " + p + "'s initiator side " + PHASE_NANOS / 1_000_000_000 + " s");
                return;
            }
        }
        if (!await(() -> Arrays.stream(pairs)
                .allMatch(p -> p == null || p.reset || p.faulted || p.unacknowledged() == 0))) {
            hang("messages not acknowledged " + PHASE_NANOS / 1_000_000_000 + " s after the load stopped");
            return;
        }
        for (IsolatedPair p : pairs) {
            if (p != null && !p.reset && (p.a.qp.state() != QpState.RTS || p.b.qp.state() != QpState.RTS)) {
                tally.note(tally.untouchedFailures, "not in RTS after the load: " + p.describe());
            }
        }
    }

    private void resetAndReplace(int slot) throws InterruptedException {
        IsolatedPair p = pairs[slot];
        if (p != null) { // else its replacement is still connecting
            p.reset = true;
            tally.resets.increment();
            try {
                p.cm.close(); // aborts its one connection: RST
            } catch (RuntimeException e) {
                tally.exception(p + " reset", e);
            }
            if (!p.stop(PHASE_NANOS)) {
                hang("a thread kept " + p + "'s initiator side " + PHASE_NANOS / 1_000_000_000 + " s");
                return;
            }
            retiring.put(p, System.nanoTime());
            pairs[slot] = null;
            open(slot);
        }
    }

    /** Closes the reset pairs whose QPs both left RTS; one that did not within PHASE_NANOS is a hang. */
    private void retire() {
        long now = System.nanoTime();
        for (java.util.Iterator<Map.Entry<IsolatedPair, Long>> i = retiring.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<IsolatedPair, Long> e = i.next();
            IsolatedPair p = e.getKey();
            if (p.a.qp.state() == QpState.ERROR && ended(p.b.qp.state())) {
                if (p.b.qp.state() == QpState.IDLE) {
                    tally.resetsSeenAsOrderlyClose.increment(); // reported, not asserted: a RST is an LLP error
                }
                setup.dispose(p);
                i.remove();
            } else if (now - e.getValue() > PHASE_NANOS) {
                hang("a reset pair's QPs did not leave RTS in " + PHASE_NANOS / 1_000_000_000 + " s: " + p.describe());
                return;
            }
        }
    }

    /** Starts a new pair on {@code slot}; {@link #admit} starts its traffic once it is connected. */
    private void open(int slot) {
        setup.open(new IsolatedPair(IDS.incrementAndGet(), slot, tally));
    }

    /** The pairs whose set-up completed take their slot and start their traffic. */
    private void admit() throws InterruptedException {
        setup.admit(p -> {
            pairs[p.slot] = p;
            p.start();
        });
    }

    private void event(AsyncEvent e) {
        if (e.context() instanceof IsolatedPair.End end) {
            if (!end.pair.reset) {
                tally.note(tally.untouchedFailures, end + " (not reset): event " + e.type() + " " + e.terminate());
            }
        } else if (e.type() == AsyncEventType.CQ_OVERFLOW || e.type() == AsyncEventType.DEVICE_FATAL) {
            tally.note(tally.untouchedFailures, "event " + e);
        }
    }

    /** A pair nobody reset that got no ack for STALL_NANOS is hung. */
    private void checkStalls() {
        long now = System.nanoTime();
        for (IsolatedPair p : pairs) {
            if (p != null && !p.reset && !p.faulted && p.unacknowledged() > 0
                    && now - p.lastProgress > STALL_NANOS) {
                hang("no ack for " + STALL_NANOS / 1_000_000_000 + " s: " + p.describe());
            }
        }
    }

    /** ERROR, or IDLE: the responder took the end of the stream for an orderly close. */
    private static boolean ended(QpState s) {
        return s == QpState.ERROR || s == QpState.IDLE;
    }

    /** Waits (bounded by PHASE_NANOS) until {@code done}; false when it did not come. */
    private static boolean await(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + PHASE_NANOS;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /** Records the first hang with every pair's QP states and counters; the run then stops. */
    private synchronized void hang(String what) {
        if (hang != null) {
            return;
        }
        StringBuilder s = new StringBuilder(what);
        for (IsolatedPair p : pairs) {
            if (p != null) {
                s.append("\n  ").append(p.brief());
            }
        }
        hang = s.toString();
    }
}
