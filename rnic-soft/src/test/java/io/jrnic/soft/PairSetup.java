package io.jrnic.soft;

import io.jrnic.verbs.AcceptOptions;
import io.jrnic.verbs.CompletionQueue;
import io.jrnic.verbs.ConnectOptions;
import io.jrnic.verbs.ConnectRequest;
import io.jrnic.verbs.Connection;
import io.jrnic.verbs.Listener;
import io.jrnic.verbs.RdmaDevice;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Test fixture of {@link ConnectionIsolationStressTest}: sets {@link IsolatedPair}s up between device A (initiator)
 * and B (responder, a listener with MPA CRC on). The initiator's private data names its pair, which B's side of the
 * pair accepts; a set-up that fails, runs without CRC or does not complete in time is counted as a set-up failure.
 * Pairs done with give their direct source memory to the next ones (a pair reset still transmits from its own).
 */
final class PairSetup {
    private final IsolationTally tally;
    private final RdmaDevice devA;
    private final RdmaDevice devB;
    private final CompletionQueue[] cqsA;
    private final CompletionQueue[] cqsB;
    private final long timeoutNanos;
    private final Listener listener;
    /** Pairs whose connect request B has yet to see, by id. */
    private final Map<Long, IsolatedPair> connecting = new ConcurrentHashMap<>();
    /** Pairs connecting (driver thread only). */
    private final Map<IsolatedPair, Opening> opening = new LinkedHashMap<>();
    /** Direct source memory of pairs closed, for the next ones. */
    private final ArrayDeque<ByteBuffer> freeSources = new ArrayDeque<>();

    /** A set-up under way and when it started. */
    private record Opening(CompletableFuture<Connection> up, long started) {
    }

    /** A pair's QPs use the CQ of its slot modulo the CQs given; a set-up may last {@code timeoutNanos}. */
    PairSetup(IsolationTally tally, RdmaDevice devA, CompletionQueue[] cqsA, RdmaDevice devB, CompletionQueue[] cqsB,
            long timeoutNanos) {
        this.tally = tally;
        this.devA = devA;
        this.devB = devB;
        this.cqsA = cqsA;
        this.cqsB = cqsB;
        this.timeoutNanos = timeoutNanos;
        this.listener = devB.connectionManager().listen(new InetSocketAddress("127.0.0.1", 0),
                ConnectOptions.defaults().crc(true));
        listener.onConnectRequest(this::accept);
    }

    /** Starts {@code p}'s set-up: A's QP made, connecting (CRC on); {@link #admit} starts its traffic. */
    void open(IsolatedPair p) {
        connecting.put(p.id, p);
        try {
            ByteBuffer source = freeSources.poll();
            p.openInitiator(devA, cqsA[p.slot % cqsA.length],
                    source != null ? source : ByteBuffer.allocateDirect(IsolatedPair.SLOTS * IsolatedPair.SLOT));
            p.cm = devA.connectionManager();
            byte[] tag = ByteBuffer.allocate(8).putLong(p.id).array();
            CompletableFuture<Connection> up = p.cm.connect(listener.localAddress(), p.a.qp,
                    ConnectOptions.defaults().crc(true).privateData(tag)).thenCombine(p.accepted, (c, accepted) -> c);
            opening.put(p, new Opening(up, System.nanoTime()));
        } catch (RuntimeException e) {
            tally.exception(p + " set-up", e);
            connecting.remove(p.id);
            dispose(p);
        }
    }

    /**
     * Hands the pairs whose set-up completed (both sides connected and accepted) to {@code started}. A set-up that
     * failed, or did not complete within the timeout, is a set-up failure.
     */
    void admit(Consumer<IsolatedPair> started) throws InterruptedException {
        long now = System.nanoTime();
        for (Iterator<Map.Entry<IsolatedPair, Opening>> i = opening.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<IsolatedPair, Opening> e = i.next();
            IsolatedPair p = e.getKey();
            CompletableFuture<Connection> up = e.getValue().up();
            // one look: a set-up completing between two isDone() calls was counted as failed ("set-up failed: null")
            boolean done = up.isDone();
            if (done && !up.isCompletedExceptionally()) {
                i.remove();
                if (!up.join().crc()) {
                    tally.note(tally.setupFailures, p + ": MPA CRC not in use");
                }
                tally.connections.increment();
                started.accept(p);
            } else if (done || now - e.getValue().started() > timeoutNanos) {
                i.remove();
                String why = done ? up.handle((c, x) -> String.valueOf(x)).join() : "not done in time";
                tally.note(tally.setupFailures, p + ": set-up failed: " + why);
                connecting.remove(p.id);
                p.stop(0);
                dispose(p);
            }
        }
    }

    /** Whether no set-up is under way. */
    boolean settled() {
        return opening.isEmpty();
    }

    /** Closes a pair that will not be used again and keeps its source memory for the next. */
    void dispose(IsolatedPair p) {
        p.close();
        if (p.sourceMemory() != null) {
            freeSources.add(p.sourceMemory());
        }
    }

    /** Stops and closes the pairs still connecting. */
    void closeAll() throws InterruptedException {
        for (IsolatedPair p : opening.keySet()) {
            p.stop(0);
            p.close();
        }
    }

    /** B's side of a pair, on B's event thread: the initiator's private data names the pair. */
    private void accept(ConnectRequest req) {
        IsolatedPair p = null;
        try {
            long id = ByteBuffer.wrap(req.privateData()).getLong();
            p = connecting.remove(id);
            if (p == null) {
                tally.note(tally.setupFailures, "connect request for unknown pair " + id);
                req.reject();
                return;
            }
            req.accept(p.openResponder(devB, cqsB[p.slot % cqsB.length]), AcceptOptions.defaults());
            p.accepted.complete(null);
        } catch (RuntimeException e) {
            tally.exception("accept", e);
            if (p != null) {
                p.accepted.completeExceptionally(e);
            }
        }
    }
}
